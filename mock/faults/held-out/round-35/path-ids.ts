// Path ids: a Spring MVC controller behind UrlPathHelper's removeSemicolonContent (on by default),
// which drops ";name=value" path parameters before the id is bound and its length checked.
import { editPathParameter } from '../../support/parameter-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho35-vault-id-spring-semicolon-content',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: 'A Spring MVC controller, @GetMapping("/flows/vault/connections/{id}") with @Size(max = 30) on the @PathVariable, whose UrlPathHelper removes semicolon content (the servlet ";jsessionid=" habit) before the path is matched: the id "<an existing id>;jsessionid=0A1B2C3D" (over 30 characters as sent) is answered 200 with that record instead of 400; "<an existing id>:jsessionid=0A1B2C3D" is still refused 400.',
    install: (app) => editPathParameter(app, 'vault', 'id', (raw) => (raw.indexOf(';') > 0 ? raw.slice(0, raw.indexOf(';')) : undefined)),
  },
]);
