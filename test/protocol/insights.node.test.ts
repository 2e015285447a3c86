/**
 * The Insights event rules are defined once, in `svc-search/protocol` (`src/protocol/insights.ts`): the
 * browser checks events with them before queueing (so nothing the service would refuse is ever sent) and the
 * service's `POST /1/events` validation reports their first broken rule as `events[i].<field>: <reason>`.
 * This holds both uses to the same verdicts — and the same field — on a corpus of valid events and of
 * one-rule violations of each.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateInsightsEvent as browserValidate } from 'svc-search/insights';
import { type InsightsEvent, validateInsightsEvent } from 'svc-search/protocol';
import { EventValidationError, validateEvent as serviceValidate } from '../../service/src/insights/validate.js';

const now = Date.now();
const base: InsightsEvent = {
  eventType: 'view',
  eventName: 'Hits Viewed',
  index: 'products',
  userToken: 'anonymous-1',
  objectIDs: ['1'],
};
const click: InsightsEvent = { ...base, eventType: 'click', eventName: 'Hit Clicked', queryID: 'q1', positions: [13] };
const { objectIDs: _o, ...noObjects } = base;
const filterEvent = { ...noObjects, eventType: 'click' as const, eventName: 'Filter Applied', filters: ['brand:Acme'] };

const valid: InsightsEvent[] = [
  base,
  click,
  filterEvent,
  { ...filterEvent, queryID: 'q1' },
  { ...base, eventType: 'conversion', eventName: 'Added to cart', queryID: 'q1' },
  { ...base, eventName: 'x'.repeat(64), userToken: 'aZ09_-=/+'.repeat(14).slice(0, 128) },
  { ...base, timestamp: now - 3 * 86_400_000 },
  { ...click, queryID: undefined, positions: undefined },
  { ...filterEvent, filters: Array.from({ length: 10 }, (_, i) => `a:${i}`) },
  { ...click, objectIDs: ['1', '2'], positions: [1, 2] },
];

const invalid: Array<[string, Record<string, unknown>]> = [
  ['eventType', { ...base, eventType: 'purchase' }],
  ['eventName', { ...base, eventName: '' }],
  ['eventName', { ...base, eventName: 'x'.repeat(65) }],
  ['eventName', { ...base, eventName: 'tab\there' }],
  ['eventName', { ...base, eventName: 'café' }],
  ['index', { ...base, index: '' }],
  ['userToken', { ...base, userToken: 'a b' }],
  ['userToken', { ...base, userToken: 'a'.repeat(129) }],
  ['userToken', { ...base, userToken: '' }],
  ['timestamp', { ...base, timestamp: now - 5 * 86_400_000 }],
  ['timestamp', { ...base, timestamp: 1.5 }],
  ['queryID', { ...base, queryID: '' }],
  ['objectIDs', { ...base, filters: ['a:b'] }],
  ['objectIDs', noObjects],
  ['objectIDs', { ...base, objectIDs: [] }],
  ['objectIDs', { ...base, objectIDs: [''] }],
  ['filters', { ...filterEvent, filters: Array.from({ length: 11 }, (_, i) => `a:${i}`) }],
  ['filters', { ...filterEvent, filters: ['noColon'] }],
  ['filters', { ...filterEvent, filters: [] }],
  ['positions', { ...click, positions: undefined }],
  ['positions', { ...click, positions: [1, 2] }],
  ['positions', { ...click, positions: [0] }],
  ['positions', { ...base, positions: [1] }],
  ['positions', { ...filterEvent, positions: [1] }],
];

function serviceField(event: unknown): string | null {
  try {
    serviceValidate(event, 0, { now });
    return null;
  } catch (error) {
    assert.ok(error instanceof EventValidationError);
    return error.field?.replace(/\[\d+\]$/, '') ?? 'event';
  }
}

describe('browser and service agree on the Insights event rules', () => {
  it("the browser module checks events with the protocol's rules (one function, not a copy)", () => {
    assert.equal(browserValidate, validateInsightsEvent);
  });

  it('accept the same valid events', () => {
    for (const event of valid) {
      assert.equal(validateInsightsEvent(event, { now }), null, JSON.stringify(event));
      assert.equal(serviceField(event), null, JSON.stringify(event));
    }
  });

  it('refuse each one-rule violation, naming the same field', () => {
    for (const [field, event] of invalid) {
      const problem = validateInsightsEvent(event, { now });
      assert.ok(problem, `protocol accepted ${JSON.stringify(event)}`);
      assert.equal(problem.field.replace(/\[\d+\]$/, ''), field, `protocol: ${JSON.stringify(problem)}`);
      assert.equal(serviceField(event), field, JSON.stringify(event));
    }
  });

  it("the service names the event and the field of the first broken rule, with the protocol's reason", () => {
    const event = { ...filterEvent, filters: ['brand:Acme', 'noColon'] };
    assert.throws(
      () => serviceValidate(event, 3, { now }),
      (error: unknown) =>
        error instanceof EventValidationError &&
        error.message === 'events[3].filters[1]: must have the form attribute:value' &&
        error.field === 'filters[1]' &&
        error.eventIndex === 3,
    );
    assert.throws(() => serviceValidate('nope', 0), /^EventValidationError: events\[0\]: must be an object$/);
  });

  it('timestamps: at most four days old and not ahead of the clock beyond the skew, unless age checks are off', () => {
    const old = { ...base, timestamp: now - 5 * 86_400_000 };
    const ahead = { ...base, timestamp: now + 3_600_000 };
    assert.deepEqual(validateInsightsEvent(old, { now }), {
      field: 'timestamp',
      reason: 'must be at most four days old',
    });
    assert.equal(validateInsightsEvent(ahead, { now })?.reason, 'must not be in the future');
    assert.equal(validateInsightsEvent(old, { now, checkAge: false }), null);
    assert.equal(validateInsightsEvent(ahead, { now, checkAge: false }), null);
  });
});
