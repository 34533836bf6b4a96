// The rules of junit-10.xsd, the schema the Jenkins xUnit plugin validates JUnit files with (and
// the shape GitLab and GitHub report tools read): which elements may hold which, and which
// attributes each may carry. Checked on a parsed document; each problem names where it is.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

const TEXT = '#text';
/** (([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)? */
const SUREFIRE_TIME = /^((\d{0,3},)*\d{3}|\d{0,3})*(\.\d*)?$/;
const RESULT = { attributes: ['type', 'message'], required: [], children: [], text: true };

interface ElementRule {
  attributes: string[];
  required: string[];
  children: string[];
  text: boolean;
  times?: string[];
}

const RULES: Record<string, ElementRule> = {
  testsuites: {
    attributes: ['name', 'time', 'tests', 'failures', 'errors'],
    required: [],
    children: ['testsuite'],
    text: false,
    times: ['time'],
  },
  testsuite: {
    attributes: [
      'name',
      'tests',
      'failures',
      'errors',
      'group',
      'time',
      'skipped',
      'timestamp',
      'hostname',
      'id',
      'package',
      'file',
      'log',
      'url',
    ],
    required: ['name', 'tests', 'failures', 'errors'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
    text: false,
    times: ['time'],
  },
  properties: { attributes: [], required: [], children: ['property'], text: false },
  property: { attributes: ['name', 'value'], required: ['name', 'value'], children: [], text: false },
  testcase: {
    attributes: ['name', 'time', 'classname', 'group'],
    required: ['name'],
    children: ['skipped', 'error', 'failure', 'rerunFailure', 'rerunError', 'flakyFailure', 'flakyError', 'system-out', 'system-err'],
    text: false,
  },
  failure: RESULT,
  error: RESULT,
  skipped: RESULT,
  'system-out': { attributes: [], required: [], children: [], text: true },
  'system-err': { attributes: [], required: [], children: [], text: true },
};

export function junitProblems(xml: string): string[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return [`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`];
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    preserveOrder: true,
    parseAttributeValue: false,
    parseTagValue: false,
  }).parse(xml) as Node[];
  const roots = parsed.filter((node) => !('?xml' in node));
  if (roots.length !== 1 || !('testsuites' in roots[0]!)) return ['the root element is not <testsuites>'];
  const problems: string[] = [];
  check(roots[0], 'testsuites', '/testsuites', problems);
  return problems;
}

function check(node: Node, name: string, path: string, problems: string[]): void {
  const rule = RULES[name];
  if (!rule) {
    problems.push(`${path}: <${name}> is not an element of the schema`);
    return;
  }
  const attributes = node[':@'] ?? {};
  for (const attribute of Object.keys(attributes))
    if (!rule.attributes.includes(attribute)) problems.push(`${path}: attribute ${attribute} is not allowed on <${name}>`);
  for (const attribute of rule.required)
    if (!(attribute in attributes)) problems.push(`${path}: <${name}> lacks its required attribute ${attribute}`);
  for (const attribute of rule.times ?? []) {
    if (attribute in attributes && !SUREFIRE_TIME.test(attributes[attribute]!))
      problems.push(`${path}: ${attribute}="${attributes[attribute]}" is not a SUREFIRE_TIME`);
  }
  const children = (node[name] as Node[] | undefined) ?? [];
  children.forEach((child, index) => {
    const childName = Object.keys(child).find((key) => key !== ':@')!;
    if (childName === TEXT) {
      if (!rule.text && String(child[TEXT]).trim() !== '') problems.push(`${path}: <${name}> may not hold text`);
      return;
    }
    if (!rule.children.includes(childName)) problems.push(`${path}: <${childName}> may not be inside <${name}>`);
    check(child, childName, `${path}/${childName}[${index}]`, problems);
  });
}
