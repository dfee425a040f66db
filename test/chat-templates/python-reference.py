# Renders chat templates as Hugging Face transformers does: Python's Jinja2 in its
# immutable sandbox, trim_blocks and lstrip_blocks, loop controls, the {% generation %}
# block (AssistantTracker; rendered as its body), transformers' tojson,
# raise_exception and strftime_now (at the job's fixed clock).
# Reads {"templates": {name: source}, "conversations": {name: variables}, "now": iso} on
# stdin, writes {template: {conversation: {"text": …} or {"error": …}}} on stdout.
import json
import sys
from datetime import datetime

from jinja2 import nodes
from jinja2.exceptions import TemplateError
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment


class GenerationBlock(Extension):
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise TemplateError(message)


job = json.load(sys.stdin)
now = datetime.fromisoformat(job["now"])
env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[GenerationBlock, loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
env.globals["strftime_now"] = lambda fmt: now.strftime(fmt)
out = {}
for name, source in job["templates"].items():
    out[name] = {}
    try:
        template = env.from_string(source)
    except Exception as error:
        for conversation in job["conversations"]:
            out[name][conversation] = {"error": f"{type(error).__name__}: {error}"}
        continue
    for conversation, variables in job["conversations"].items():
        try:
            out[name][conversation] = {"text": template.render(**variables)}
        except Exception as error:
            out[name][conversation] = {"error": f"{type(error).__name__}: {error}"}
json.dump(out, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
sys.stdout.write("\n")
