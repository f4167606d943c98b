// Drives the system's Chromium with playwright-core for croupier's browser tests
// (tests/common/browser.rs `drive`): reads one JSON request on stdin, runs its commands in one
// page, and writes one JSON answer on stdout.
//
// Request: {"commands": [ {"op": …}, … ]} with ops
//   goto {url}                    open a page (waits for "load")
//   click {sel}                   click the first element matching sel
//   press {key}                   a key on the page ("ArrowRight", "j", "Home", …)
//   text {sel}                    textContent of the first match (null if none)
//   texts {sel}                   textContent of every match
//   count {sel}                   number of matches
//   attr {sel, name}              an attribute of the first match
//   eval {js}                     the value of a JavaScript expression in the page
//   input {sel, value}            sets an <input>'s value and sends it "input" (a slider)
//   url {}                        the page's URL
// Answer: {"results": [one per command], "console": [{type, text}], "errors": [uncaught
// exceptions], "requests": [every URL the pages asked for that is not file: or data:
// (refused)], "failed": null or the message of the command that failed}.
//
// CHROMIUM names the browser (default /usr/bin/chromium). The flags are those croupier's tests
// use everywhere: without the networking ones Chromium hangs on a closed network.
"use strict";
const { chromium } = require("playwright-core");

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

async function run(page, c) {
  switch (c.op) {
    case "goto":
      await page.goto(c.url, { waitUntil: "load" });
      return page.url();
    case "click":
      await page.click(c.sel);
      return null;
    case "press":
      await page.keyboard.press(c.key);
      return null;
    case "text":
      return page.evaluate(sel => {
        const e = document.querySelector(sel);
        return e ? e.textContent : null;
      }, c.sel);
    case "texts":
      return page.evaluate(sel => [...document.querySelectorAll(sel)].map(e => e.textContent), c.sel);
    case "count":
      return page.evaluate(sel => document.querySelectorAll(sel).length, c.sel);
    case "attr":
      return page.evaluate(([sel, name]) => {
        const e = document.querySelector(sel);
        return e ? e.getAttribute(name) : null;
      }, [c.sel, c.name]);
    case "eval":
      return page.evaluate(js => (0, eval)(js), c.js);
    case "input":
      return page.evaluate(([sel, value]) => {
        const e = document.querySelector(sel);
        e.value = value;
        e.dispatchEvent(new Event("input", { bubbles: true }));
        return e.value;
      }, [c.sel, String(c.value)]);
    case "url":
      return page.url();
    default:
      throw new Error(`unknown op ${JSON.stringify(c.op)}`);
  }
}

async function main() {
  const req = JSON.parse(await readStdin());
  const answer = { results: [], console: [], errors: [], requests: [], failed: null };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
  });
  try {
    const context = await browser.newContext();
    // No network: every request other than the page's own file (and data: URLs) is refused
    // and reported.
    await context.route("**/*", route => {
      const url = route.request().url();
      if (url.startsWith("file:") || url.startsWith("data:")) return route.continue();
      answer.requests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on("console", m => answer.console.push({ type: m.type(), text: m.text() }));
    page.on("pageerror", e => answer.errors.push(String(e && e.stack ? e.stack : e)));
    for (const c of req.commands) {
      try {
        answer.results.push(await run(page, c));
      } catch (e) {
        answer.failed = `${JSON.stringify(c)}: ${e && e.message ? e.message : e}`;
        break;
      }
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}

main().catch(e => {
  process.stderr.write(`drive.js: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
