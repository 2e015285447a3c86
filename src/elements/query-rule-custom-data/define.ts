import { SvcQueryRuleCustomData } from './svc-query-rule-custom-data.js';

export { SvcQueryRuleCustomData };

if (!customElements.get('svc-query-rule-custom-data'))
  customElements.define('svc-query-rule-custom-data', SvcQueryRuleCustomData);

declare global {
  interface HTMLElementTagNameMap {
    'svc-query-rule-custom-data': SvcQueryRuleCustomData;
  }
}
