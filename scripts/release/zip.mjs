// A .zip of a few text files (deflated), written with Node's zlib alone: the release artifacts are
// small and this is all they need (PKWARE APPNOTE 6.3: local headers, data, central directory).
import { crc32, deflateRawSync } from 'node:zlib';

/** DOS date and time of an instant (the zip's timestamps), in its UTC fields. */
function dosTime(ms) {
  const d = new Date(ms);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** The bytes of a zip holding `files` ({ name, data: Buffer|string }), each dated `mtimeMs`. */
export function zip(files, mtimeMs) {
  const { time, date } = dosTime(mtimeMs);
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name, 'utf8');
    const data = Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    // version 2.0, flag bit 11 (UTF-8 names), method 8 (deflate)
    const common = [20, 0x0800, 8, time, date];
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common.forEach((v, i) => local.writeUInt16LE(v, 4 + 2 * i));
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    common.forEach((v, i) => central.writeUInt16LE(v, 6 + 2 * i));
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a plain file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
