/**
 * `lang` and `dir` across the elements (issue 7): numbers and plural forms follow the nearest `lang`
 * (through shadow roots), `dir="rtl"` mirrors the layout (the styles use logical properties only), against
 * the real local service.
 */
import { expect } from '@open-wc/testing';
import '../../src/define.js';
import type { SvcElement } from '../../src/elements/base/svc-element.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import { admin, indexProducts, until } from '../embedding/fixture.js';

describe('lang and dir', () => {
  let indexName: string;
  let bigIndex: string;
  const mounted: Element[] = [];

  before(async () => {
    indexName = await indexProducts('i18n_dir');
    // Suggestions for <svc-autocomplete> (its default index name), in the Query Suggestions record shape.
    const body = {
      objectID: 'phone',
      query: 'phone',
      popularity: 1,
      [indexName]: { facets: { exact_matches: { brand: [{ value: 'Acme', count: 1 }] } } },
    };
    await admin('POST', `/1/indexes/${indexName}_query_suggestions/batch`, {
      requests: [{ action: 'addObject', body }],
    });
    const many = Array.from({ length: 1234 }, (_, i) => ({
      objectID: `r${i}`,
      name: `Record ${i}`,
      brand: i % 2 ? 'Acme' : 'Globex',
      price: i,
      popularity: i,
    }));
    bigIndex = await indexProducts('i18n_lang', many);
  });

  afterEach(() => {
    for (const el of mounted.splice(0)) el.remove();
  });

  function mount(attributes: string, html: string, index = indexName): SvcSearch {
    const host = document.createElement('div');
    host.innerHTML = `<svc-search app-id="SVCLOCAL" api-key="local-search-key" hosts="${location.origin}" index-name="${index}" insights="false" ${attributes}>${html}</svc-search>`;
    document.body.append(host);
    mounted.push(host);
    return host.querySelector('svc-search')!;
  }

  const text = (el: Element) => el.shadowRoot!.textContent!.replace(/\s+/g, ' ').trim();

  it('formats counts for the nearest lang: en, de, fr (and lang on the element itself wins)', async () => {
    const results: Record<string, string> = {};
    for (const lang of ['en', 'de', 'fr']) {
      const search = mount(`lang="${lang}"`, '<svc-stats></svc-stats>', bigIndex);
      const stats = search.querySelector('svc-stats')!;
      await until(() => /1.?234/u.test(text(stats)), `stats in ${lang}`);
      results[lang] = stats.shadowRoot!.textContent!.trim().match(/^\d[\d.,\u202f\u00a0]*\d/u)![0];
    }
    expect(results).to.deep.equal({ en: '1,234', de: '1.234', fr: '1\u202f234' });

    const search = mount('lang="de"', '<svc-stats lang="en"></svc-stats>', bigIndex);
    const stats = search.querySelector('svc-stats')!;
    await until(() => text(stats).startsWith('1,234'), 'the element’s own lang');
  });

  it('reads lang across shadow roots and picks plural forms of that language (Polish "few")', async () => {
    const search = mount('', '<div></div>');
    const wrapper = search.querySelector('div')!;
    const shadow = wrapper.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<section lang="pl"><svc-stats></svc-stats></section>';
    const stats = shadow.querySelector('svc-stats')!;
    stats.translations = {
      stats: 'wyników: {count}',
      'stats.one': 'jeden wynik',
      'stats.few': '{count} wyniki',
      'stats.many': '{count} wyników',
    };
    expect((stats as unknown as SvcElement).language).to.equal('pl');
    await until(() => Boolean(search.store), 'store');
    search.store!.setQuery('laptop'); // 4 laptops: Polish "few"
    await until(() => text(stats) === '4 wyniki', 'few form');
    search.store!.setQuery('phone'); // 18 phones: Polish "many"
    await until(() => text(stats) === '18 wyników', 'many form');
  });

  it('dir="rtl" on <svc-search> reaches the shadow roots and mirrors the layout', async () => {
    const html = `<svc-search-box></svc-search-box><svc-refinement-list attribute="brand"></svc-refinement-list>
      <svc-hits-per-page></svc-hits-per-page><svc-pagination padding="1"></svc-pagination><svc-range-input attribute="price"></svc-range-input>
      <svc-infinite-hits style="--svc-infinite-hits-columns: 1fr 1fr"></svc-infinite-hits><svc-menu attribute="brand"></svc-menu>
      <svc-autocomplete category-attribute="brand"></svc-autocomplete>`;
    const positions: Record<
      string,
      {
        submitLeftOfInput: boolean;
        previousLeftOfNext: boolean;
        countLeftOfLabel: boolean;
        minLeftOfMax: boolean;
        firstHitLeftOfSecond: boolean;
        menuCountLeftOfLabel: boolean;
        suggestionSubmitLeftOfInput: boolean;
        queryLeftOfCategory: boolean;
        direction: string;
      }
    > = {};
    for (const dir of ['ltr', 'rtl']) {
      const search = mount(`dir="${dir}"`, html);
      search.querySelector('svc-hits-per-page')!.items = [{ value: 5, default: true }];
      const box = search.querySelector('svc-search-box')!;
      const pager = search.querySelector('svc-pagination')!;
      const list = search.querySelector('svc-refinement-list')!;
      const range = search.querySelector('svc-range-input')!;
      const infinite = search.querySelector('svc-infinite-hits')!;
      const menu = search.querySelector('svc-menu')!;
      const autocomplete = search.querySelector('svc-autocomplete')!;
      await until(() => Boolean(autocomplete.input), `autocomplete rendered (${dir})`);
      autocomplete.input!.value = 'pho';
      autocomplete.input!.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await until(
        () =>
          Boolean(pager.shadowRoot?.querySelector('[part~="next"]')) &&
          Boolean(list.shadowRoot?.querySelector('[part~="count"]')) &&
          (infinite.shadowRoot?.querySelectorAll('li').length ?? 0) > 1 &&
          Boolean(menu.shadowRoot?.querySelector('[part~="count"]')) &&
          Boolean(autocomplete.shadowRoot?.querySelector('[part~="category"]')),
        `rendered (${dir})`,
      );
      const rect = (root: Element, selector: string) =>
        root.shadowRoot!.querySelector(selector)!.getBoundingClientRect();
      const input = rect(box, 'input');
      positions[dir] = {
        direction: getComputedStyle(box.shadowRoot!.querySelector('input')!).direction,
        submitLeftOfInput: rect(box, '[part~="submit"]').left < input.left,
        previousLeftOfNext: rect(pager, '[part~="previous"]').left < rect(pager, '[part~="next"]').left,
        countLeftOfLabel: rect(list, '[part~="count"]').left < rect(list, '[part~="label-text"]').left,
        minLeftOfMax: rect(range, '[part~="min"]').left < rect(range, '[part~="max"]').left,
        firstHitLeftOfSecond: rect(infinite, 'li:nth-child(1)').left < rect(infinite, 'li:nth-child(2)').left,
        menuCountLeftOfLabel: rect(menu, '[part~="count"]').left < rect(menu, '[part~="label-text"]').left,
        suggestionSubmitLeftOfInput: rect(autocomplete, '[part~="submit"]').left < rect(autocomplete, 'input').left,
        queryLeftOfCategory: rect(autocomplete, '[part~="query"]').left < rect(autocomplete, '[part~="category"]').left,
      };
    }
    expect(positions.ltr!.direction).to.equal('ltr');
    expect(positions.rtl!.direction).to.equal('rtl');
    for (const key of [
      'submitLeftOfInput',
      'previousLeftOfNext',
      'countLeftOfLabel',
      'minLeftOfMax',
      'firstHitLeftOfSecond',
      'menuCountLeftOfLabel',
      'suggestionSubmitLeftOfInput',
      'queryLeftOfCategory',
    ] as const) {
      expect(positions.rtl![key], `${key} mirrored`).to.equal(!positions.ltr![key]);
    }
  });

  it('the element styles use logical properties only (no left/right), so any direction works', () => {
    const physical =
      /(?:^|[\s;{])(?:margin|padding|border)-(?:left|right)\b|(?:^|[\s;{])(?:left|right)\s*:|text-align\s*:\s*(?:left|right)|float\s*:\s*(?:left|right)|border-(?:top|bottom)-(?:left|right)-radius/;
    const offenders: string[] = [];
    let scanned = 0;
    for (const tag of [...new Set([...document.querySelectorAll('*')].map((el) => el.localName))].concat([
      'svc-search',
      'svc-search-box',
      'svc-autocomplete',
      'svc-hits',
      'svc-highlight',
      'svc-snippet',
      'svc-refinement-list',
      'svc-menu',
      'svc-pagination',
      'svc-stats',
      'svc-current-refinements',
      'svc-clear-refinements',
      'svc-sort-by',
      'svc-hits-per-page',
      'svc-range-input',
      'svc-infinite-hits',
      'svc-configure',
      'svc-recommendations',
      'svc-trending',
    ])) {
      const ctor = customElements.get(tag) as unknown as { styles?: unknown } | undefined;
      if (!tag.startsWith('svc-') || !ctor) continue;
      const sheets = [ctor.styles].flat(Infinity as 1) as Array<{ cssText?: string } | undefined>;
      for (const sheet of sheets) {
        scanned += sheet?.cssText?.length ?? 0;
        for (const rule of (sheet?.cssText ?? '').split('}'))
          if (physical.test(rule)) offenders.push(`${tag}: ${rule.trim()}}`);
      }
    }
    expect(scanned, 'CSS scanned').to.be.greaterThan(2000);
    expect(physical.test('a { margin-left: 1px }'), 'the check itself').to.equal(true);
    expect([...new Set(offenders)]).to.deep.equal([]);
  });
});
