/**
 * <svc-rating-menu> in real Chromium against the real service: axe, "N stars & up" links with counts computed
 * from the records (the menu's own refinement left out), real hrefs, Enter, choosing the refined one removes it,
 * a choice without hits disabled, the event, max, translations with plural forms, and rtl.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcRatingMenu } from '../../src/elements/rating-menu/svc-rating-menu.js';
import '../../src/elements/rating-menu/define.js';
import { searchFixture, settled, shadow } from './search-fixture.js';
import { countOf, createShopIndex, SHOP } from './shop-fixture.js';

const links = (menu: SvcRatingMenu) => [...shadow(menu).querySelectorAll<HTMLAnchorElement>('a[part~="link"]')];
/** Each choice as "<accessible text> | <count>". */
const choices = (menu: SvcRatingMenu) =>
  links(menu).map(
    (a) => `${a.querySelector('.visually-hidden')!.textContent} | ${a.querySelector('[part~="count"]')!.textContent}`,
  );

describe('<svc-rating-menu>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_rating');
  });

  async function setup(menu = html`<svc-rating-menu attribute="rating"></svc-rating-menu>`, index = indexName) {
    const root = await searchFixture(index, menu);
    const element = root.querySelector('svc-rating-menu')!;
    await waitUntil(() => root.store!.getSnapshot().results?.facets.rating !== undefined, 'the rating facet');
    await element.updateComplete;
    return { root, menu: element, store: root.store! };
  }

  it('is accessible: a labelled list of links named "N stars & up", stars hidden from assistive technologies', async () => {
    const { menu } = await setup();
    await expect(menu).to.be.accessible();
    expect(shadow(menu).querySelector('ul')!.getAttribute('aria-label')).to.equal('Filter by rating');
    expect(shadow(menu).querySelector('[part~="stars"]')!.getAttribute('aria-hidden')).to.equal('true');
    expect(shadow(menu).querySelectorAll('li:first-child [part~="star-full"]')).to.have.length(4);
    expect(shadow(menu).querySelectorAll('li:first-child [part~="star-empty"]')).to.have.length(1);
  });

  it('counts the hits of each choice from the records; a choice refines, the refined one removes; counts unchanged', async () => {
    const { menu, store } = await setup();
    const expected = [4, 3, 2, 1].map(
      (stars) => `${stars} ${stars === 1 ? 'star' : 'stars'} & up | ${countOf((p) => p.rating >= stars)}`,
    );
    expect(choices(menu)).to.deep.equal(expected);
    expect(links(menu)[0]!.getAttribute('href')).to.equal('?numeric[rating]=%3E%3D4&numeric[rating]=%3C%3D5');
    const logged = store.requestLog.length;
    let event = oneEvent(menu, 'svc-range-change');
    links(menu)[0]!.click();
    expect((await event).detail).to.deep.equal({ attribute: 'rating', min: 4, max: 5 });
    await settled(store);
    expect(store.requestLog.length).to.equal(logged + 1);
    expect(store.getSnapshot().results!.nbHits).to.equal(countOf((p) => p.rating >= 4));
    await menu.updateComplete;
    expect(links(menu)[0]!.getAttribute('aria-current')).to.equal('true');
    expect(links(menu)[0]!.closest('li')!.getAttribute('part')).to.equal('item selected-item');
    expect(choices(menu), 'the menu’s own refinement is left out of its counts').to.deep.equal(expected);
    links(menu)[0]!.focus();
    event = oneEvent(menu, 'svc-range-change');
    await sendKeys({ press: 'Enter' });
    expect((await event).detail).to.deep.equal({ attribute: 'rating', min: undefined, max: undefined });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
  });

  it('a choice without hits is disabled (no href, aria-disabled); max sets the choices', async () => {
    const few = await createShopIndex(
      'svc_rating_few',
      SHOP.filter((p) => p.rating === 1 || p.rating === 2),
    );
    const { menu } = await setup(html`<svc-rating-menu attribute="rating" max="3"></svc-rating-menu>`, few);
    expect(choices(menu)).to.deep.equal([
      `2 stars & up | ${countOf((p) => p.rating === 2)}`,
      `1 star & up | ${countOf((p) => p.rating <= 2)}`,
    ]);
    const other = await setup(html`<svc-rating-menu attribute="rating"></svc-rating-menu>`, few);
    const first = links(other.menu)[0]!;
    expect(first.hasAttribute('href')).to.be.false;
    expect(first.getAttribute('aria-disabled')).to.equal('true');
    expect(first.closest('li')!.getAttribute('part')).to.equal('item disabled-item');
    first.click();
    await settled(other.store);
    expect(other.store.getSnapshot().state.numericRefinements).to.deep.equal({});
    await expect(other.menu).to.be.accessible();
  });

  it('translations (plural forms, numbers of the language) and rtl', async () => {
    const { menu } = await setup(html`<svc-rating-menu attribute="rating" lang="fr" dir="rtl"></svc-rating-menu>`);
    menu.translations = {
      itemLabel: '{count} étoiles et plus',
      'itemLabel.one': '{count} étoile et plus',
      andUp: 'et plus',
      listLabel: 'Note',
    };
    await menu.updateComplete;
    expect(choices(menu).map((choice) => choice.split(' | ')[0])).to.deep.equal([
      '4 étoiles et plus',
      '3 étoiles et plus',
      '2 étoiles et plus',
      '1 étoile et plus',
    ]);
    const link = links(menu)[0]!;
    const [stars, count] = [link.querySelector('[part~="stars"]')!, link.querySelector('[part~="count"]')!].map((el) =>
      el.getBoundingClientRect(),
    );
    expect(stars!.left, 'stars first on the right in rtl').to.be.greaterThan(count!.left);
    await expect(menu).to.be.accessible();
  });
});
