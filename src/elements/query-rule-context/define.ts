import { SvcQueryRuleContext } from './svc-query-rule-context.js';

export { SvcQueryRuleContext };

if (!customElements.get('svc-query-rule-context')) customElements.define('svc-query-rule-context', SvcQueryRuleContext);

declare global {
  interface HTMLElementTagNameMap {
    'svc-query-rule-context': SvcQueryRuleContext;
  }
}
