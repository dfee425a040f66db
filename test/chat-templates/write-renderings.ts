/** Writes python-renderings.json: every corpus template rendered by Python's Jinja (python3 with jinja2). */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { CORPUS_DIR, corpusTemplates } from "./corpus.js";
import { TEMPLATE_CLOCK, TEMPLATE_CONVERSATIONS } from "./template-conversations.js";

const job = JSON.stringify({ templates: corpusTemplates(), conversations: TEMPLATE_CONVERSATIONS, now: TEMPLATE_CLOCK });
const output = execFileSync("python3", [`${CORPUS_DIR}/python-reference.py`], { input: job, maxBuffer: 1 << 28 });
writeFileSync(`${CORPUS_DIR}/python-renderings.json`, output);
console.log(`wrote ${CORPUS_DIR}python-renderings.json (${output.length} bytes)`);
