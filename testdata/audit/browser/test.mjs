// Opens the audit report of testdata/audit/repo in Debian's headless
// Chromium (driven by playwright-core, no browser download) and uses it as
// a person would: reads the summary, clicks column headers, picks filters,
// follows a link to a card, looks at the pictures. Fails on any console
// error, page error, network request or failed check. Saves a screenshot.
//
// Usage: node test.mjs REPORT.html SCREENSHOT.png
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [reportPath, shotPath] = process.argv.slice(2);
if (!reportPath || !shotPath) {
  console.error("usage: node test.mjs REPORT.html SCREENSHOT.png");
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";

let passed = 0;
const failures = [];
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failures.push(name);
    console.log(`FAIL ${name}${detail === undefined ? "" : ": " + JSON.stringify(detail)}`);
  }
}

const profile = mkdtempSync(join(tmpdir(), "scalelint-chromium-"));
// A fresh profile for every run (launchPersistentContext passes it as
// --user-data-dir).
const browser = await chromium.launchPersistentContext(profile, {
  executablePath,
  headless: true,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
  ],
  viewport: { width: 1400, height: 1100 },
  deviceScaleFactor: 1,
});
const consoleErrors = [];
const requests = [];
try {
  const page = await browser.newPage();
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") consoleErrors.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) requests.push(r.url()); });
  const url = pathToFileURL(resolve(reportPath)).href;
  await page.goto(url, { waitUntil: "load" });

  // What is on the page.
  const rows = page.locator("#audit tbody tr");
  const total = await rows.count();
  check("the table lists the fixture's nine autoscalers", total === 9, total);
  const tiles = await page.locator(".tile").evaluateAll((ts) => ts.map((t) => [t.dataset.verdict, +t.querySelector("b").textContent]));
  const byVerdict = await rows.evaluateAll((trs) => trs.reduce((m, tr) => { m[tr.dataset.verdict] = (m[tr.dataset.verdict] || 0) + 1; return m; }, {}));
  check("the summary tiles count the rows by verdict", tiles.length > 0 && tiles.every(([v, n]) => byVerdict[v] === n), { tiles, byVerdict });
  check("failing autoscalers are counted", byVerdict.fail === 3, byVerdict);
  const worst = await page.locator(".worst li").count();
  check("the worst list shows the evaluated autoscalers, at most ten", worst >= 1 && worst <= 10, worst);
  const firstVerdicts = await rows.evaluateAll((trs) => trs.slice(0, 3).map((tr) => tr.dataset.verdict));
  check("rows start worst first", firstVerdicts.every((v) => v === "fail"), firstVerdicts);

  // Sorting by clicking a header.
  const col = async (i) => rows.evaluateAll((trs, i) => trs.filter((tr) => !tr.hidden).map((tr) => tr.cells[i].getAttribute("data-sort") ?? tr.cells[i].textContent.trim()), i);
  const nums = (vs) => vs.filter((v) => v !== "").map(Number);
  const sorted = (xs, dir) => xs.every((x, i) => i === 0 || (dir > 0 ? xs[i - 1] <= x : xs[i - 1] >= x));
  const marginHead = page.locator("#audit thead th", { hasText: "margin" });
  await marginHead.locator("button").click();
  let m = await col(2);
  check("clicking 'margin' sorts ascending", sorted(nums(m), 1) && (await marginHead.getAttribute("aria-sort")) === "ascending", m);
  check("rows without a margin sort last", m.slice(nums(m).length).every((v) => v === ""), m);
  await marginHead.locator("button").click();
  m = await col(2);
  check("clicking 'margin' again sorts descending", sorted(nums(m), -1) && (await marginHead.getAttribute("aria-sort")) === "descending", m);
  await page.locator("#audit thead th", { hasText: "autoscaler" }).locator("button").click();
  const names = await col(3);
  check("clicking 'autoscaler' sorts by name", names.every((n, i) => i === 0 || names[i - 1].localeCompare(n) <= 0), names);
  const delayHead = page.locator("#audit thead th", { hasText: "standing delay" });
  await delayHead.locator("button").click();
  const d = await col(6);
  check("clicking 'standing delay' puts the hunting consumer first", sorted(nums(d), 1) && Number(d[0]) < -90, d);
  await page.locator("#audit thead th").first().locator("button").click();

  // Filters.
  const visible = async () => rows.evaluateAll((trs) => trs.filter((tr) => !tr.hidden).map((tr) => tr.dataset));
  await page.selectOption("#f-ns", "shop");
  let v = await visible();
  check("the namespace filter keeps only that namespace", v.length === 3 && v.every((x) => x.ns === "shop"), v.map((x) => x.ns));
  check("the count follows the filter", (await page.locator("#shown").textContent()).trim() === "3 of 9");
  const cardsShown = await page.locator("#cards .card:not([hidden])").count();
  check("the cards follow the filter", cardsShown === 3, cardsShown);
  await page.selectOption("#f-ns", "");
  await page.selectOption("#f-rule", "tolerance-trap");
  v = await visible();
  check("the rule filter keeps the trapped CPU target", v.length === 1 && v[0].rules.includes(" tolerance-trap "), v);
  await page.selectOption("#f-rule", "");
  await page.selectOption("#f-verdict", "pass");
  v = await visible();
  // One passes in full (search/catalog-api: every law evaluated, margin +25%);
  // shop/invoice-consumer passes what was evaluated and is "partial", which
  // this filter must leave out (audit's verdicts: pass, partial, bounded).
  check("the verdict filter keeps the passing autoscalers", v.length === 1 && v.every((x) => x.verdict === "pass") && v[0].text.includes("catalog-api"), v);
  await page.selectOption("#f-verdict", "partial");
  v = await visible();
  check("the verdict filter keeps the partly evaluated autoscalers", v.length === 1 && v[0].verdict === "partial" && v[0].text.includes("invoice-consumer"), v);
  await page.click("#f-clear");
  await page.fill("#f-text", "ledger");
  v = await visible();
  check("the search box filters by name", v.length === 1, v.length);
  await page.click("#f-clear");
  check("clear shows every row again", (await visible()).length === 9);
  await page.locator(".tile.v-fail").click();
  v = await visible();
  check("clicking a summary tile filters by its verdict", v.length === 3 && v.every((x) => x.verdict === "fail"), v);
  await page.click("#f-clear");

  // Cards and pictures.
  const link = page.locator(".worst a", { hasText: "shop/orders-consumer" });
  await link.click();
  const card = page.locator(await link.getAttribute("href"));
  check("a worst-list link opens its card", await card.evaluate((c) => c.open));
  const phi = card.locator("svg.pic", { hasText: "Φ curve" });
  check("the hunting consumer's card draws the Φ curve", (await phi.count()) === 1);
  const phiText = await phi.textContent();
  check("the Φ curve shows the floor, the point and the fix", /needs 89\.\ds/.test(phiText) && phiText.includes("has D = T/c = 1s") && phiText.includes("fix: lagThreshold"), phiText);
  const sim = card.locator("svg.sim");
  check("the hunting consumer's card embeds its simulated run", (await sim.count()) === 1 && /hunts/.test(await sim.textContent()));
  const boxes = await page.locator("svg.pic").evaluateAll((ss) => ss.map((s) => { const r = s.getBoundingClientRect(); return [r.width, r.height]; }));
  check("every picture is laid out with a size", boxes.length >= 8 && boxes.every(([w, h]) => w > 100 && h > 80), boxes.length);
  const ceiling = page.locator("svg.pic", { hasText: "band (15, 14.4] is empty" });
  check("the empty ceiling band is drawn with M* and 0.8·N_max", (await ceiling.count()) === 1 && /M\* = A·λ\/c = 3·50\/10 = 15/.test(await ceiling.textContent()));
  const stairs = page.locator("svg.pic", { hasText: "15 rounds × (90s + 30s) = 1800s" });
  check("the storefront's staircase shows its fifteen rounds", (await stairs.count()) === 1);
  const xss = await page.evaluate(() => document.querySelectorAll("script").length);
  check("the page runs only its own script", xss === 1, xss);

  // The picture for the record: the summary, the table and the first card.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shotPath, fullPage: false });
} catch (e) {
  failures.push(`exception: ${e.message}`);
  console.log(`FAIL ${e.stack}`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
check("no console error or warning", consoleErrors.length === 0, consoleErrors);
check("no network request", requests.length === 0, requests);
console.log(`browser: ${passed} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
