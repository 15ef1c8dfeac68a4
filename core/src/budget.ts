/**
 * A credit budget shared by many calls (an n8n execution's credit cap, a bulk run): reserve a
 * call's estimated cost before sending it, settle with what the service really charged after.
 * Reservations make concurrent calls respect the cap too.
 */
export interface CreditBudget {
  tryReserve(credits: number): boolean;
  settle(reserved: number, charged: number): void;
}

export class CreditLedger implements CreditBudget {
  spent = 0;
  private reserved = 0;
  /** `cap` undefined: no limit, only counting. */
  constructor(readonly cap?: number) {}
  tryReserve(credits: number): boolean {
    if (this.cap !== undefined && this.spent + this.reserved + credits > this.cap) return false;
    this.reserved += credits;
    return true;
  }
  settle(reserved: number, charged: number): void {
    this.reserved -= reserved;
    this.spent += charged;
  }
}
