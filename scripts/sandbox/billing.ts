/** API keys and credit balances of one sandbox (in memory). */
import { hash32 } from './world/random';

const DEMO_BALANCE = 1_000_000;
const SIGNUP_CREDITS = 50;
const KEY_FORMAT = /^sk_sandbox_[A-Za-z0-9]{8,64}$/;

export class Billing {
  private balances = new Map<string, number>();
  private counter = 0;
  readonly demoKey: string;

  constructor(
    private readonly seed: number,
    demoKey?: string,
  ) {
    this.demoKey =
      demoKey?.trim() ||
      `sk_sandbox_demo${hash32(seed, 'demo-key').toString(36)}${hash32(seed, 'demo-key-2').toString(36)}`;
    this.balances.set(this.demoKey, DEMO_BALANCE);
  }

  /** A fresh key with `balance` credits (50, the signup gift, unless given). */
  createKey(balance = SIGNUP_CREDITS): string {
    if (!Number.isInteger(balance) || balance < 0)
      throw new Error(`balance must be a whole number of 0 or more; got ${balance}`);
    const n = ++this.counter;
    const key = `sk_sandbox_${hash32(this.seed, 'key', n, Date.now()).toString(36)}${n.toString(36)}${hash32(n, this.seed).toString(36)}`;
    this.balances.set(key, balance);
    return key;
  }

  /** Whether a presented key is well-formed and known (the demo key may be any string from env). */
  knows(key: string | undefined): key is string {
    return !!key && this.balances.has(key) && (key === this.demoKey || KEY_FORMAT.test(key));
  }

  balance(key: string): number {
    const b = this.balances.get(key);
    if (b === undefined) throw new Error('Unknown sandbox key');
    return b;
  }

  setBalance(key: string, balance: number): void {
    if (!this.balances.has(key)) throw new Error('Unknown sandbox key');
    this.balances.set(key, balance);
  }

  revoke(key: string): boolean {
    return this.balances.delete(key);
  }

  /** Take `credits` from a key's balance; the caller has checked the balance covers it. */
  charge(key: string, credits: number): number {
    const after = this.balance(key) - credits;
    this.balances.set(key, after);
    return after;
  }
}
