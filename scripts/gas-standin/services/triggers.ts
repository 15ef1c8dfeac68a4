/**
 * Installable time-driven triggers (ScriptApp.newTrigger ... timeBased()), with the limits Apps
 * Script puts on add-ons: one time-driven trigger per user per document, firing at most once an
 * hour (`everyMinutes` is refused), created only where ScriptApp may be used (not from a custom
 * function, nor without the `script.scriptapp` scope when the manifest lists scopes). They fire
 * when a test moves the clock (`runtime.advance`), each as its own 6-minute execution of the user
 * who installed it.
 */
import type { Host } from '../internal/types';
import type { Realm } from '../internal/realm';

const HOUR = 3600000;

export interface InstalledTrigger {
  uid: string;
  handler: string;
  user: string;
  everyMs: number;
  nextAt: number;
  /** Times it fired, and how each ended. */
  runs: { at: number; ok: boolean; error?: string }[];
}

export class TriggerRegistry {
  readonly installed: InstalledTrigger[] = [];
  private nextUid = 1;

  add(t: Omit<InstalledTrigger, 'uid' | 'runs'>): InstalledTrigger {
    const trigger = { ...t, uid: String(this.nextUid++), runs: [] };
    this.installed.push(trigger);
    return trigger;
  }

  remove(uid: string): void {
    const i = this.installed.findIndex((t) => t.uid === uid);
    if (i >= 0) this.installed.splice(i, 1);
  }

  /** The next trigger due at or before `until`, earliest first. */
  nextDue(until: number): InstalledTrigger | undefined {
    return this.installed.filter((t) => t.nextAt <= until).sort((a, b) => a.nextAt - b.nextAt)[0];
  }
}

export function createTriggerBuilders(host: Host, realm: Realm, registry: TriggerRegistry) {
  const facade = (t: InstalledTrigger) => ({
    getUniqueId: () => t.uid,
    getHandlerFunction: () => t.handler,
    getEventType: () => 'CLOCK',
    getTriggerSource: () => 'CLOCK',
    toString: () => 'Trigger',
  });
  const ensure = (what: string) => host.ensure('triggers', what, realm);
  return {
    newTrigger(handler: unknown) {
      ensure('ScriptApp.newTrigger');
      const name = String(handler);
      return {
        timeBased() {
          let everyMs = 0;
          const builder = {
            everyMinutes() {
              throw realm.exception(
                'Add-ons may not create time-driven triggers that fire more often than once an hour.',
              );
            },
            everyHours(n: unknown) {
              const h = Number(n);
              if (![1, 2, 4, 6, 8, 12].includes(h))
                throw realm.exception(`Invalid argument: everyHours(${String(n)}) (1, 2, 4, 6, 8 or 12)`);
              everyMs = h * HOUR;
              return builder;
            },
            everyDays(n: unknown) {
              everyMs = Math.max(1, Number(n)) * 24 * HOUR;
              return builder;
            },
            create() {
              ensure('TriggerBuilder.create');
              if (!everyMs) throw realm.exception('Clock triggers need a frequency (everyHours, everyDays...).');
              const user = host.current().user;
              if (registry.installed.some((t) => t.user === user)) {
                throw realm.exception(
                  'This add-on has created too many time-based triggers in this document for this Google user account.',
                );
              }
              return facade(registry.add({ handler: name, user, everyMs, nextAt: host.clock.now() + everyMs }));
            },
          };
          return builder;
        },
      };
    },
    getProjectTriggers() {
      ensure('ScriptApp.getProjectTriggers');
      const user = host.current().user;
      return realm.array(registry.installed.filter((t) => t.user === user).map(facade));
    },
    getUserTriggers() {
      ensure('ScriptApp.getUserTriggers');
      const user = host.current().user;
      return realm.array(registry.installed.filter((t) => t.user === user).map(facade));
    },
    deleteTrigger(t: { getUniqueId?: () => string }) {
      ensure('ScriptApp.deleteTrigger');
      registry.remove(String(t?.getUniqueId?.()));
    },
  };
}
