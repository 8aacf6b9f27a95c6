#!/usr/bin/env node
// The pokercert protocol adapter for evaluator.js: JSON Lines on stdin/stdout
// (see harness/PROTOCOL.md). Run it with:
//   pokercert run --adapter "exec:node examples/js-evaluator/adapter.js" --ruleset nj-poker-high-5
"use strict";

const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");
const { Evaluator, Refusal, CATEGORIES } = require("./evaluator.js");

const PROTOCOL = 1;
// protocol features this adapter implements, with their versions (PROTOCOL.md, section 6)
const FEATURES = { classify_many: 1, evaluate_many: 1 };
// the build identity: a digest of the evaluator's source, so a report names the exact code
const BUILD = crypto.createHash("sha256")
  .update(fs.readFileSync(path.join(__dirname, "evaluator.js"))).digest("hex").slice(0, 16);
const evaluator = new Evaluator();
const out = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

// one hand of classify_many / evaluate_many: its category, or why it has none
function refusalOf(e) {
  if (e instanceof Refusal) return { rejected: e.code, message: e.message };
  return { error: String(e && e.message || e) };
}

function answer(req) {
  try {
    switch (req.op) {
      case "classify": return { id: req.id, category: evaluator.classify(req.hand) };
      case "compare": return { id: req.id, winners: evaluator.winners(req.hands, req.board) };
      case "classify_many": {
        const categories = new Array(req.hands.length);
        for (let i = 0; i < req.hands.length; i++) {
          try { categories[i] = evaluator.classify(req.hands[i]); } catch (e) { categories[i] = refusalOf(e); }
        }
        return { id: req.id, categories };
      }
      case "evaluate_many": {
        const n = req.hands.length;
        const categories = new Array(n);
        const keys = new Array(n);
        for (let i = 0; i < n; i++) {
          try {
            const v = evaluator.evaluate(req.hands[i]);
            categories[i] = v.category;
            keys[i] = v.key;
          } catch (e) {
            categories[i] = refusalOf(e);
            keys[i] = null;
          }
        }
        return { id: req.id, categories, keys };
      }
      default: return { id: req.id, error: `unsupported operation ${req.op}` };
    }
  } catch (e) {
    if (e instanceof Refusal) return { id: req.id, rejected: e.code, message: e.message };
    return { id: req.id, error: String(e && e.message || e) };
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch (e) {
    out({ type: "error", message: `not JSON: ${line.slice(0, 200)}` });
    return;
  }
  switch (msg.type) {
    case "hello":
      out({
        type: "hello", protocol: PROTOCOL,
        evaluator: { vendor: "pokercert examples", name: "js-evaluator", version: "1.0.0",
          build: BUILD },
        adapter: { name: "js-evaluator-adapter", version: "1.0.0" },
        capabilities: Object.fromEntries(Object.keys(CATEGORIES)
          .map((r) => [r, ["classify", "compare", "reject"]])),
        // only what the harness announced, at the version it announced
        features: Object.fromEntries(Object.entries(FEATURES)
          .filter(([name, version]) => (msg.features || {})[name] === version)),
      });
      break;
    case "configure":
      try {
        evaluator.configure(msg.ruleset, msg.readings);
        out({ type: "configure", ok: true });
      } catch (e) {
        out({ type: "configure", ok: false, message: String(e.message) });
      }
      break;
    case "batch":
      out({ type: "batch", id: msg.id, replies: msg.requests.map(answer) });
      break;
    case "stop":
      rl.close();
      process.exit(0);
      break;
    default:
      out({ type: "error", message: `unknown message type ${msg.type}` });
  }
});
rl.on("close", () => process.exit(0));
