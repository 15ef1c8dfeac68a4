// The Google Workspace Marketplace store listing of the Sheets add-on: its texts, and why it asks for
// each OAuth scope of sheets-addon/appsscript.json. `npm run release:marketplace` writes them into
// docs/marketplace/listing.md beside the images; test/marketplace.test.ts checks them against the
// limits Google's "Create a store listing" page states and against the manifest.

/** Every image of the kit with the size Google asks for ("Graphic assets"), width and height. */
export const KIT_IMAGES = {
  'icon-128.png': [128, 128],
  'icon-32.png': [32, 32],
  'banner-220x140.png': [220, 140],
  'screenshot-1.png': [1280, 800],
  'screenshot-2.png': [1280, 800],
};

/** Google's limits: https://developers.google.com/workspace/marketplace/create-listing ("App details"). */
export const LIMITS = { name: 50, short: 200, detailed: 16_000 };

export const LISTING = {
  name: 'IG Data',
  short:
    'Public Instagram data in your sheet: followers, engagement, posts and audits for a whole column of accounts with one formula, tracked weekly with trends.',
  detailed: `IG Data brings public Instagram data into Google Sheets, for marketers who keep their lists of creators, competitors and leads in a spreadsheet.

- One formula per lookup, over a whole column at once: =IGPROFILE(A2:A100,"followers") fills a column of follower counts; =IGENGAGEMENT(A2:A100,12,"engagement_rate_pct") the engagement rate of each account's last 12 posts. Profiles, posts, reels, stories, hashtags, places, search, and insights computed from them: engagement rate, best time to post, fake-follower audit, lead scoring, AI summaries.
- Track these accounts: select a column of accounts and choose the fields. The add-on runs weekly or daily, with the sheet closed, and keeps a tracker sheet with, for each account, the latest value, the change since the last run and a trend line.
- Vet a list of accounts, watch a hashtag for new posts, run bulk lookups that write plain values, and schedule any lookup with a credit cap per run.
- The sidebar shows your balance and where the credits went. Answers are reused for 7 days by default (1 hour to 30 days: you choose), so recalculating does not pay twice.

Pricing: you pay per request, in credits. 50 free credits when you sign up (no card needed), then from 8.00 per 1,000 credits, falling to 6.00 per 1,000 at volume. No subscription, no minimum. A profile costs 1 credit; insights 2 to 22 depending on how much they analyze. Get a key at https://igdata.dev.

Only public data: private accounts stay private (a lookup says so). Your API key is kept with the spreadsheet and sent only to the IG Data API.`,
  category: 'Productivity',
  pricing:
    'Free of charge with paid features: the add-on is free to install; its lookups spend credits of an IG Data account (50 free on signup, then from 8.00 per 1,000).',
};

/** Why the add-on needs each scope of its manifest, in words for the OAuth consent review. */
export const SCOPE_REASONS = {
  'https://www.googleapis.com/auth/spreadsheets.currentonly':
    'Reads the accounts a user selects and writes answers, tracker, history and usage sheets into the spreadsheet the add-on runs in; no other file.',
  'https://www.googleapis.com/auth/script.external_request':
    'Calls the IG Data API (https://api.igdata.dev, the manifest’s only allowed host) for the lookups a user asks for.',
  'https://www.googleapis.com/auth/script.container.ui':
    'Shows the add-on’s sidebar (the key, bulk lookups, trackers, schedules, usage) and its menu inside Sheets.',
  'https://www.googleapis.com/auth/script.scriptapp':
    'Installs one hourly trigger that runs scheduled lookups and trackers with the sheet closed and keeps cached answers fresh.',
  'https://www.googleapis.com/auth/script.send_mail':
    'Sends the alert email a user sets up on a tracker (one email a run, as the user, to the addresses the rule names); nothing else.',
};

/** A scope's reason; a scope without one stops the kit (the listing must say why each is asked for). */
function reasonOf(scope) {
  if (!SCOPE_REASONS[scope])
    throw new Error(`no reason for the scope ${scope}: add one to scripts/release/listing.mjs`);
  return SCOPE_REASONS[scope];
}

/** listing.md: what the Store Listing page's fields take, and the scopes' reasons. */
export function listingText(scopes) {
  const rows = scopes.map((s) => `| \`${s}\` | ${reasonOf(s)} |`);
  return `# Google Workspace Marketplace listing: IG Data for Google Sheets

Written by \`npm run release:marketplace\` from \`scripts/release/listing.mjs\` (edit the texts there)
and \`sheets-addon/appsscript.json\` (the scopes). The images beside this file have the sizes
Google's [Create a store listing](https://developers.google.com/workspace/marketplace/create-listing)
page asks for: application icons 128 x 128 and 32 x 32 (\`icon-128.png\`, \`icon-32.png\`), the
application card banner 220 x 140 (\`banner-220x140.png\`), screenshots 1280 x 800
(\`screenshot-1.png\`: formulas over a column; \`screenshot-2.png\`: a tracker after three weekly
runs; both from the Sheets preview, the built add-on on the sandbox).

## Application name

${LISTING.name}

## Short description (${LISTING.short.length} of ${LIMITS.short} characters)

${LISTING.short}

## Detailed description (${LISTING.detailed.length.toLocaleString('en-US')} of ${LIMITS.detailed.toLocaleString('en-US')} characters)

${LISTING.detailed}

## Category

${LISTING.category}

## Pricing

${LISTING.pricing}

## OAuth scopes

The manifest's scopes (\`sheets-addon/appsscript.json\`), the same list in the Marketplace SDK's App
Configuration and on the OAuth consent screen, and why each is needed:

| Scope | Why |
|---|---|
${rows.join('\n')}
`;
}
