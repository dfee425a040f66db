import { enumKey } from "../facts/enum-domains.js";
import { namedIn, taskSubjects } from "../facts/subjects.js";
import { defineGuard, type Decision } from "../guard.js";

/**
 * G1, narrowing from the task: where the task names values of a subject
 * parameter's domain (a city, a ticker: what the task is about), the domain
 * shrinks to them, the string counterpart of numeric provenance. Only
 * subjects: narrowing every enum to what the task names made the right call
 * unwritable ("…in F?" narrowed both `from` and `to` of a conversion to F).
 * A tool that declares no subjects has them inferred from its schema and
 * the task (see subjectDomains), and the decision says so. A task that
 * names none leaves the domain whole.
 */
export const taskEnumGuard = defineGuard({
  id: "G1",
  title: "subject domains narrowed to the values the task names",
  stage: "narrow",
  view(state, view) {
    const decisions: Decision[] = [];
    const enums = { ...view.enums };
    for (const tool of state.tools.filter((candidate) => view.tools.includes(candidate.name))) {
      for (const subject of taskSubjects(state, tool)) {
        const key = enumKey(tool.name, subject.param);
        const domain = (enums[key] as string[] | undefined) ?? subject.domain;
        const named = namedIn(state.task, { domain, inferred: subject.inferred }, tool.aliases);
        if (named.length === 0 || named.length === domain.length) continue;
        enums[key] = named;
        decisions.push(
          subject.inferred
            ? { kind: "narrow", tool: tool.name, param: subject.param, values: named, reason: "the task names these values (a subject inferred from the schema)", inferred: true }
            : { kind: "narrow", tool: tool.name, param: subject.param, values: named, reason: "the task names these values" },
        );
      }
    }
    return { view: { ...view, enums }, decisions };
  },
});
