/** SpreadsheetApp.getUi(): menus, sidebars, dialogs, alerts, recorded for assertions. */
import type { Host } from '../internal/types';
import type { Realm } from '../internal/realm';
import { HtmlOutputImpl } from './html';

const cloneItems = (items: MenuItem[]): MenuItem[] => JSON.parse(JSON.stringify(items));

export const Button = Object.freeze({ CLOSE: 'CLOSE', OK: 'OK', CANCEL: 'CANCEL', YES: 'YES', NO: 'NO' });
export const ButtonSet = Object.freeze({
  OK: 'OK',
  OK_CANCEL: 'OK_CANCEL',
  YES_NO: 'YES_NO',
  YES_NO_CANCEL: 'YES_NO_CANCEL',
});

export type MenuItem =
  | { type: 'item'; caption: string; functionName: string }
  | { type: 'separator' }
  | { type: 'submenu'; caption: string; items: MenuItem[] };

export interface RecordedMenu {
  caption: string;
  addon: boolean;
  items: MenuItem[];
}

export interface RecordedHtml {
  title: string;
  width: number | null;
  height: number | null;
  content: string;
  executionId: number;
}

/** Everything the script showed; tests read it and queue answers for alert/prompt. */
export class UiRecorder {
  /** Menus added with addToUi, latest per caption. */
  readonly menus: RecordedMenu[] = [];
  readonly sidebars: RecordedHtml[] = [];
  readonly dialogs: (RecordedHtml & { modal: boolean })[] = [];
  readonly alerts: { title: string; prompt: string; buttons: string }[] = [];
  readonly prompts: { title: string; prompt: string; buttons: string }[] = [];
  readonly toasts: { message: string; title: string; timeoutSeconds: number }[] = [];
  /** Answers for the next alert() calls (Button names); default OK, or YES for YES_NO sets. */
  readonly alertResponses: string[] = [];
  /** Answers for the next prompt() calls. */
  readonly promptResponses: { text: string; button?: string }[] = [];
  /** google.script.host.close() calls made by sidebars opened with openSidebar(). */
  hostCloseCalls = 0;

  menu(caption: string): RecordedMenu | undefined {
    return this.menus.find((m) => m.caption === caption);
  }

  get lastSidebar(): RecordedHtml | undefined {
    return this.sidebars[this.sidebars.length - 1];
  }
}

export function createUi(host: Host, realm: Realm, rec: UiRecorder, addonName: string) {
  const show = (what: string) => {
    host.ensure('ui.show', what, realm);
    host.checkDeadline(realm);
  };

  function menu(caption: string, addon: boolean) {
    const items: MenuItem[] = [];
    const self = {
      addItem(itemCaption: unknown, functionName: unknown) {
        items.push({ type: 'item', caption: String(itemCaption), functionName: String(functionName) });
        return self;
      },
      addSeparator() {
        items.push({ type: 'separator' });
        return self;
      },
      addSubMenu(sub: { __items?: () => { caption: string; items: MenuItem[] } }) {
        const s = sub?.__items?.();
        if (!s) throw realm.exception('Invalid argument: menu');
        items.push({ type: 'submenu', caption: s.caption, items: s.items });
        return self;
      },
      addToUi() {
        const recorded: RecordedMenu = { caption, addon, items: cloneItems(items) };
        const i = rec.menus.findIndex((m) => m.caption === caption);
        if (i >= 0) rec.menus[i] = recorded;
        else rec.menus.push(recorded);
      },
      __items: () => ({ caption, items: cloneItems(items) }),
      toString: () => 'Menu',
    };
    Object.defineProperty(self, '__items', { enumerable: false });
    return self;
  }

  function html(output: unknown, title?: unknown): RecordedHtml {
    if (!(output instanceof HtmlOutputImpl)) throw realm.exception('Invalid argument: userInterface');
    const s = output.snapshot();
    return {
      title: title === undefined ? s.title : String(title),
      width: s.width,
      height: s.height,
      content: s.content,
      executionId: host.current().id,
    };
  }

  function alertArgs(args: unknown[]) {
    // alert(prompt) | alert(prompt, buttons) | alert(title, prompt, buttons)
    if (args.length >= 3) return { title: String(args[0]), prompt: String(args[1]), buttons: String(args[2]) };
    if (args.length === 2) return { title: '', prompt: String(args[0]), buttons: String(args[1]) };
    return { title: '', prompt: String(args[0]), buttons: ButtonSet.OK };
  }

  return {
    Button,
    ButtonSet,
    createMenu: (caption: unknown) => menu(String(caption), false),
    createAddonMenu: () => menu(addonName, true),
    showSidebar(output: unknown) {
      show('Ui.showSidebar');
      rec.sidebars.push(html(output));
    },
    showModalDialog(output: unknown, title: unknown) {
      show('Ui.showModalDialog');
      rec.dialogs.push({ ...html(output, title), modal: true });
    },
    showModelessDialog(output: unknown, title: unknown) {
      show('Ui.showModelessDialog');
      rec.dialogs.push({ ...html(output, title), modal: false });
    },
    alert(...args: unknown[]): string {
      show('Ui.alert');
      const a = alertArgs(args);
      rec.alerts.push(a);
      return rec.alertResponses.shift() ?? (a.buttons.startsWith('YES') ? Button.YES : Button.OK);
    },
    prompt(...args: unknown[]) {
      show('Ui.prompt');
      const a = alertArgs(args.length === 1 ? [args[0], ButtonSet.OK] : args);
      rec.prompts.push(a);
      const r = rec.promptResponses.shift() ?? { text: '' };
      return {
        getResponseText: () => r.text,
        getSelectedButton: () => r.button ?? (a.buttons.startsWith('YES') ? Button.YES : Button.OK),
        toString: () => 'PromptResponse',
      };
    },
    toString: () => 'Ui',
  };
}
