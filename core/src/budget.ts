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

/**
 * What a ledger counts, as a plain object so that several ledgers can share it: the runs of one n8n
 * node within one workflow execution (loops, an agent's tool calls) keep it in the execution's
 * context and each run brings its own cap. Plain numbers, so the context can be saved and restored.
 */
export interface LedgerTally {
  spent: number;
  reserved: number;
  /** Set aside for work whose cost was known before it started and not drawn yet. */
  held: number;
}

export const emptyTally = (): LedgerTally => ({ spent: 0, reserved: 0, held: 0 });

export class CreditLedger implements CreditBudget {
  /** `cap` undefined: no limit, only counting. `tally`: shared with other ledgers over the same spending. */
  constructor(
    readonly cap?: number,
    private readonly tally: LedgerTally = emptyTally(),
  ) {}

  get spent(): number {
    return this.tally.spent;
  }

  private fits(credits: number): boolean {
    const t = this.tally;
    return this.cap === undefined || t.spent + t.reserved + t.held + credits <= this.cap;
  }

  tryReserve(credits: number): boolean {
    if (!this.fits(credits)) return false;
    this.tally.reserved += credits;
    return true;
  }

  settle(reserved: number, charged: number): void {
    this.tally.reserved -= reserved;
    this.tally.spent += charged;
  }

  /**
   * Set aside `credits` for known work before any of it starts, so that open-ended work (a Return
   * All) reserving later cannot take them. False, holding nothing, when they do not fit the cap.
   */
  tryHold(credits: number): boolean {
    if (!this.fits(credits)) return false;
    this.tally.held += credits;
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
        this.tally.held -= own;
        left -= own;
        this.tally.reserved += credits;
        return true;
      },
      settle: (reserved, charged) => this.settle(reserved, charged),
      release: () => {
        this.tally.held -= left;
        left = 0;
      },
    };
  }
}
