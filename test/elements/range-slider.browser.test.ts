/**
 * <svc-range-slider> in real Chromium against the real service: axe, two ARIA sliders (bounds from the records'
 * prices, value text as a price), keys (a step, a page, Home / End, released → one request; Right goes down
 * under rtl; Escape drops the move), a real mouse drag and a press on the track, a thumb at its bound leaving
 * that side open, the range shared with <svc-range-input> both ways, the event, translations, and no bounds.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import type { SvcRangeSlider } from '../../src/elements/range-slider/svc-range-slider.js';
import '../../src/elements/range-slider/define.js';
import '../../src/elements/range-input/define.js';
import { searchFixture, settled, shadow } from './search-fixture.js';
import { countOf, createShopIndex, SHOP } from './shop-fixture.js';

const thumb = (slider: SvcRangeSlider, side: 'min' | 'max') =>
  shadow(slider).querySelector<HTMLElement>(`[part~="thumb-${side}"]`)!;
const now = (slider: SvcRangeSlider, side: 'min' | 'max') => Number(thumb(slider, side).getAttribute('aria-valuenow'));
const LOW = Math.floor(Math.min(...SHOP.map((p) => p.price)));
const HIGH = Math.ceil(Math.max(...SHOP.map((p) => p.price)));

/** The centre of an element in page coordinates. */
function centre(element: Element): [number, number] {
  const rect = element.getBoundingClientRect();
  return [Math.round(rect.x + rect.width / 2), Math.round(rect.y + rect.height / 2)];
}

describe('<svc-range-slider>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_slider');
  });

  async function setup(slider = html`<svc-range-slider attribute="price" currency="USD"></svc-range-slider>`) {
    const root = await searchFixture(
      indexName,
      html`<div style="inline-size: 400px">${slider}</div>
        <svc-range-input attribute="price"></svc-range-input>`,
    );
    const element = root.querySelector('svc-range-slider')!;
    await waitUntil(() => now(element, 'max') > 0, 'the bounds');
    return { root, slider: element, store: root.store! };
  }

  it('is accessible: two sliders with labels, bounds from the results, price value texts', async () => {
    const { slider } = await setup();
    await expect(slider).to.be.accessible();
    const [min, max] = [thumb(slider, 'min'), thumb(slider, 'max')];
    expect(min.getAttribute('role')).to.equal('slider');
    expect(min.getAttribute('aria-label')).to.equal('Minimum price');
    expect(max.getAttribute('aria-label')).to.equal('Maximum price');
    expect([min.getAttribute('aria-valuemin'), min.getAttribute('aria-valuenow')]).to.deep.equal([
      String(LOW),
      String(LOW),
    ]);
    expect([max.getAttribute('aria-valuemax'), max.getAttribute('aria-valuenow')]).to.deep.equal([
      String(HIGH),
      String(HIGH),
    ]);
    // Each thumb's limit is the other thumb.
    expect(min.getAttribute('aria-valuemax')).to.equal(String(HIGH));
    expect(max.getAttribute('aria-valuemin')).to.equal(String(LOW));
    expect(min.getAttribute('aria-valuetext')).to.equal(`$${LOW.toFixed(2)}`);
    expect(shadow(slider).querySelector('[part~="max-value"]')!.textContent).to.equal(`$${HIGH.toFixed(2)}`);
  });

  it('keys move a thumb by steps and pages; the release refines once; Home/End; svc-range-change', async () => {
    const { slider, store } = await setup();
    thumb(slider, 'min').focus();
    const logged = store.requestLog.length;
    await sendKeys({ down: 'ArrowRight' });
    await sendKeys({ down: 'ArrowRight' });
    await sendKeys({ down: 'ArrowUp' });
    await slider.updateComplete;
    expect(now(slider, 'min')).to.equal(LOW + 3);
    expect(store.requestLog.length, 'nothing sent while the key is held').to.equal(logged);
    const event = oneEvent(slider, 'svc-range-change');
    await sendKeys({ up: 'ArrowUp' });
    expect((await event).detail).to.deep.equal({ attribute: 'price', min: LOW + 3, max: undefined });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements.price).to.deep.equal([{ operator: '>=', value: LOW + 3 }]);
    expect(store.getSnapshot().results!.nbHits).to.equal(countOf((p) => p.price >= LOW + 3));

    thumb(slider, 'max').focus();
    await sendKeys({ press: 'PageDown' });
    await settled(store);
    const page = Math.round((HIGH - LOW) / 10);
    expect(store.getSnapshot().state.numericRefinements.price).to.deep.equal([
      { operator: '>=', value: LOW + 3 },
      { operator: '<=', value: HIGH - page },
    ]);
    await sendKeys({ press: 'End' });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements.price, 'a thumb at its bound: that side open').to.deep.equal([
      { operator: '>=', value: LOW + 3 },
    ]);
    thumb(slider, 'min').focus();
    await sendKeys({ press: 'Home' });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
  });

  it('a thumb never passes the other; Escape drops the move', async () => {
    const { slider, store } = await setup(html`<svc-range-slider attribute="price" step="50"></svc-range-slider>`);
    thumb(slider, 'min').focus();
    for (let i = 0; i < 10; i++) await sendKeys({ down: 'ArrowRight' });
    await slider.updateComplete;
    expect(now(slider, 'min')).to.equal(HIGH, 'stopped at the other thumb');
    await sendKeys({ down: 'Escape' });
    await slider.updateComplete;
    expect(now(slider, 'min')).to.equal(LOW);
    await sendKeys({ up: 'ArrowRight' });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
  });

  it('a mouse drag of the upper thumb and a press on the track refine on release', async () => {
    const { slider, store } = await setup();
    const track = shadow(slider).querySelector('[part~="track"]')!.getBoundingClientRect();
    const [x, y] = centre(thumb(slider, 'max'));
    await sendMouse({ type: 'move', position: [x, y] });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'move', position: [Math.round(track.left + track.width / 2), y] });
    await slider.updateComplete;
    const dragged = now(slider, 'max');
    expect(dragged).to.be.within(LOW + (HIGH - LOW) * 0.45, LOW + (HIGH - LOW) * 0.55);
    await sendMouse({ type: 'up' });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements.price).to.deep.equal([{ operator: '<=', value: dragged }]);
    expect(store.getSnapshot().results!.nbHits).to.equal(countOf((p) => p.price <= dragged));
    // A press near the start of the track moves the nearer (lower) thumb there.
    await sendMouse({ type: 'click', position: [Math.round(track.left + track.width * 0.1), y] });
    await settled(store);
    const min = store.getSnapshot().state.numericRefinements.price!.find((r) => r.operator === '>=')!.value;
    expect(min).to.be.within(LOW + (HIGH - LOW) * 0.05, LOW + (HIGH - LOW) * 0.15);
  });

  it('shares the range with <svc-range-input>, both ways', async () => {
    const { root, slider, store } = await setup();
    const input = root.querySelector('svc-range-input')!;
    const [min, max] = [...shadow(input).querySelectorAll<HTMLInputElement>('input')];
    min!.value = '20';
    max!.value = '120';
    shadow(input).querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    await settled(store);
    await slider.updateComplete;
    expect([now(slider, 'min'), now(slider, 'max')]).to.deep.equal([20, 120]);
    thumb(slider, 'max').focus();
    await sendKeys({ press: 'ArrowLeft' });
    await settled(store);
    await input.updateComplete;
    expect([min!.value, max!.value]).to.deep.equal(['20', '119']);
  });

  it('rtl: Right moves down; translations; no bounds: disabled thumbs', async () => {
    const { slider, store } = await setup(
      html`<svc-range-slider attribute="price" dir="rtl" lang="de"></svc-range-slider>`,
    );
    slider.translations = { minLabel: 'Mindestpreis', maxLabel: 'Höchstpreis' };
    await slider.updateComplete;
    expect(thumb(slider, 'max').getAttribute('aria-label')).to.equal('Höchstpreis');
    const [minX] = centre(thumb(slider, 'min'));
    const [maxX] = centre(thumb(slider, 'max'));
    expect(minX, 'the lower thumb on the right').to.be.greaterThan(maxX);
    thumb(slider, 'max').focus();
    await sendKeys({ press: 'ArrowRight' });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements.price).to.deep.equal([{ operator: '<=', value: HIGH - 1 }]);
    await expect(slider).to.be.accessible();

    store.setQuery('nothing matches this');
    await settled(store);
    await slider.updateComplete;
    expect(thumb(slider, 'min').getAttribute('aria-disabled')).to.equal('true');
    expect(thumb(slider, 'min').getAttribute('tabindex')).to.equal('-1');
  });
});
