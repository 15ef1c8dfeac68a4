/**
 * A credit budget shared by many calls (an n8n execution's credit cap, a bulk run): reserve a
 * call's estimated cost before sending it, settle with what the service really charged after.
 * Reservations make concurrent calls respect the cap too.
 */
export interface CreditBudget {
  tryReserve(credits: number): boolean;
  settle(reserved: number, charged: number): void;
}

/** One call's budget over a share of what a ledger holds for it (`CreditLedger.allowance`). */
export interface Allowance extends CreditBudget {
  /** Hand back the part of the share the call did not use, for open-ended work. */
  release(): void;
}

export class CreditLedger implements CreditBudget {
  spent = 0;
  private reserved = 0;
  /** Set aside for work whose cost was known before it started and not drawn yet. */
  private held = 0;
  /** `cap` undefined: no limit, only counting. */
  constructor(readonly cap?: number) {}

  private fits(credits: number): boolean {
    return this.cap === undefined || this.spent + this.reserved + this.held + credits <= this.cap;
  }

  tryReserve(credits: number): boolean {
    if (!this.fits(credits)) return false;
    this.reserved += credits;
    return true;
  }

  settle(reserved: number, charged: number): void {
    this.reserved -= reserved;
    this.spent += charged;
  }

  /**
   * Set aside `credits` for known work before any of it starts, so that open-ended work (a Return
   * All) reserving later cannot take them. False, holding nothing, when they do not fit the cap.
   */
  tryHold(credits: number): boolean {
    if (!this.fits(credits)) return false;
    this.held += credits;
    return true;
  }

  /**
   * The budget of one call of the held work: it draws on its `share` first, which is always
   * granted (it was set aside for this call), and beyond it competes like open-ended work.
   */
  allowance(share: number): Allowance {
    let left = share;
    return {
      tryReserve: (credits) => {
        const own = Math.min(credits, left);
        if (!this.fits(credits - own)) return false;
        this.held -= own;
        left -= own;
        this.reserved += credits;
        return true;
      },
      settle: (reserved, charged) => this.settle(reserved, charged),
      release: () => {
        this.held -= left;
        left = 0;
      },
    };
  }
}
