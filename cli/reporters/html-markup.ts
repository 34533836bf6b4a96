// Markup for the HTML report. `html` is the only way text becomes markup: every value put into it
// is escaped unless it is markup already, so a title with quotes, `<` or `§` reads as written and
// can never turn into an element or an attribute.
export class Markup {
  constructor(readonly text: string) {}
}

type Part = string | number | Markup | readonly Markup[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Markup {
  return new Markup(strings.reduce((out, literal, i) => out + literal + (i < parts.length ? markup(parts[i]!) : ''), ''));
}

export function join(parts: readonly Markup[], separator: string): Markup {
  return new Markup(parts.map((p) => p.text).join(escapeHtml(separator)));
}

function markup(part: Part): string {
  if (part instanceof Markup) return part.text;
  if (typeof part === 'object') return part.map((p) => p.text).join('');
  return escapeHtml(String(part));
}
