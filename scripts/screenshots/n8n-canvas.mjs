// The n8n scene for pictures: the editor `npm start` opens, signed in as its owner, the first example
// workflow open on the canvas and executed with *Execute workflow* as the README says, its nodes
// green with their item counts. n8n's own page, driven by its data-test-id marks.
import { FIRST_WORKFLOW } from '../start/next-steps.mjs';

/** Signs in on the editor's page as a person does. */
async function signIn(page, editor) {
  await page.goto(`${editor.url}/signin`);
  const email = page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first();
  await email.fill(editor.email);
  await page.locator('input[type="password"]').first().fill(editor.password);
  await page.locator('[data-test-id="form-submit-button"], button[type="submit"]').first().click();
  await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 60_000 });
}

/**
 * The id of the workflow named `name`, from the editor's REST API with the page's session (n8n ties
 * it to the browser id its page keeps in localStorage and sends as a header).
 */
async function workflowId(page, name) {
  const list = await page.evaluate(() =>
    fetch('/rest/workflows', { headers: { 'browser-id': localStorage.getItem('n8n-browserId') ?? '' } }).then((r) =>
      r.json(),
    ),
  );
  const wf = (list.data ?? []).find((w) => w.name === name);
  if (!wf) throw new Error(`screenshots: no workflow named "${name}" in the editor`);
  return wf.id;
}

/** Opens the first example, executes it, and waits for its last node to show its items. */
export async function canvasScene(page, editor) {
  await signIn(page, editor);
  await page.goto(`${editor.url}/workflow/${await workflowId(page, FIRST_WORKFLOW)}`);
  const execute = page.locator('[data-test-id="execute-workflow-button"]').first();
  await execute.waitFor({ timeout: 60_000 });
  // n8n greets a first visit with panels and notices: out of the picture.
  await page.keyboard.press('Escape');
  await execute.click();
  await page.locator('[data-test-id="canvas-node-status-success"]').nth(2).waitFor({ timeout: 120_000 });
  // Fit the workflow to the canvas (n8n's shortcut "1": zoom to fit), away from any hovered node.
  await page.mouse.move(5, 300);
  await page.keyboard.press('1');
}
