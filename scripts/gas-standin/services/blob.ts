/** Minimal Blob (Utilities.newBlob, HTTPResponse.getBlob). */
import type { Realm } from '../internal/realm';

export class BlobImpl {
  readonly #realm: Realm;
  #buf: Buffer;
  #contentType: string | null;
  #name: string | null;

  constructor(realm: Realm, buf: Buffer, contentType: string | null, name: string | null) {
    this.#realm = realm;
    this.#buf = Buffer.from(buf);
    this.#contentType = contentType;
    this.#name = name;
  }

  /** Host-side copy of the bytes. */
  bufferCopy(): Buffer {
    return Buffer.from(this.#buf);
  }

  getBytes(): number[] {
    return this.#realm.bytes(this.#buf);
  }

  setBytes(bytes: ArrayLike<number>): BlobImpl {
    const b = Buffer.alloc(bytes.length);
    for (let i = 0; i < bytes.length; i++) b[i] = Number(bytes[i]) & 0xff;
    this.#buf = b;
    return this;
  }

  getDataAsString(charset?: string): string {
    return this.#buf.toString(charset && /ascii/i.test(charset) ? 'latin1' : 'utf8');
  }

  setDataFromString(s: string): BlobImpl {
    this.#buf = Buffer.from(String(s), 'utf8');
    return this;
  }

  getContentType(): string | null {
    return this.#contentType;
  }

  setContentType(ct: string | null): BlobImpl {
    this.#contentType = ct;
    return this;
  }

  getName(): string | null {
    return this.#name;
  }

  setName(name: string): BlobImpl {
    this.#name = name;
    return this;
  }

  copyBlob(): BlobImpl {
    return new BlobImpl(this.#realm, this.#buf, this.#contentType, this.#name);
  }

  getBlob(): BlobImpl {
    return this;
  }

  isGoogleType(): boolean {
    return false;
  }

  toString(): string {
    return 'Blob';
  }
}

export function isBlob(v: unknown): v is BlobImpl {
  return v instanceof BlobImpl;
}
