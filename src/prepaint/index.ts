/**
 * The first paint without Lit: on a page it can reproduce (page.ts), the loader runs this at once. It sends the
 * page's first search itself — the state the store starts from (a routed URL read by the store's own parser,
 * store/parse-query-string.ts), built by the store's own request building (store/requests.ts) from the needs the
 * elements will register (controllers/first-search-needs.ts; insights/token.ts with the consent, cookie and user
 * token of the root), sent as the client sends it (client/params.ts, client/hosts.ts) — and paints the first hits
 * in `<svc-hits>`' shadow root (paint.ts). It leaves the answer on the `<svc-search>` (handoff.ts): the store adopts
 * it when its first requests are the same, and sends its own otherwise; `<svc-hits>` takes the shadow root over at
 * its first render with results.
 *
 * The loader requests the elements' chunks once the hits are painted (or the search failed): what a user waits for
 * is this script and one search.
 */
import { DEFAULT_TIMEOUTS, computeHosts } from '../client/hosts.js';
import { multiSearchBody, urlCredentials } from '../client/params.js';
import type { SearchResponse } from '../client/types.js';
import { consentOf } from '../elements/search/insights-attributes.js';
import { clickTarget, countsAsClick } from '../insights/click-target.js';
import type { HitRef } from '../insights/types.js';
import { anonymousToken, insightsNeeds } from '../insights/token.js';
import { keptValues } from '../insights/storage.js';
import { isValidUserToken } from '../protocol/user-token.js';
import { queryStringToState } from '../store/parse-query-string.js';
import { buildQueries, mergeNeeds, mergeResults, requestsDigest } from '../store/requests.js';
import { PREPAINT_KEY, type PaintedClick, type PrepaintHandoff, type PrepaintMark } from './handoff.js';
import { type PrepaintPage, readPage } from './page.js';
import { paintHits } from './paint.js';

/**
 * Records the clicks on the painted `items` (in the shadow root `root`, painted for the `<svc-search>` `searchRoot`)
 * for Insights until `<svc-hits>` replaces them: kept until Insights takes them (`takeClicks`), then handed to it as
 * they happen, so none is lost between its creation and the takeover, and each reaches one Insights only. Until
 * Insights takes them, a click is kept only with consent at that moment (the root's `insightsConsent` property when
 * code set it, even before the element is defined, else its `insights-consent` attribute, read as the element reads
 * them): one made while consent is denied is never sent, one made after a banner granted it is. The
 * recorder is removed at the takeover: the mark of `root` holds its removal, which `clearPrepainted` runs. A click
 * on a `data-svc-conversion` element inside a hit is that conversion, found as Insights finds it (`clickTarget`).
 *
 * @example
 * const takeClicks = recordClicks(page.root, painted.root, painted.items); // later: takeClicks((click) => …)
 */
function recordClicks(
  searchRoot: Element,
  root: ShadowRoot,
  items: Map<Element, HitRef>,
): PrepaintHandoff['takeClicks'] {
  const recorded: PaintedClick[] = [];
  let take = (click: PaintedClick) => {
    if (consentOf(searchRoot)) recorded.push(click);
  };
  const types = ['click', 'auxclick'];
  const onClick = (event: Event) => {
    if (!countsAsClick(event as MouseEvent)) return;
    const target = clickTarget(event.composedPath(), items);
    if (target) take({ ...target, at: Date.now() });
  };
  for (const type of types) root.addEventListener(type, onClick);
  (root as ShadowRoot & { [PREPAINT_KEY]?: PrepaintMark })[PREPAINT_KEY] = () => {
    for (const type of types) root.removeEventListener(type, onClick);
    // The painted nodes are gone: nothing keeps them alive.
    items.clear();
  };
  return (taker) => {
    take = taker;
    for (const click of recorded.splice(0)) taker(click);
  };
}

/**
 * The user token of the first search, as Insights' stand-in (insights/lazy.ts) has it when it registers its needs:
 * none without Insights or without consent (nothing read nor kept then), else the valid `insights-user-token`, or
 * the anonymous token (created and kept, in the cookie with `insights-cookie`, as the stand-in does either way).
 */
function userToken(insights: PrepaintPage['insights']): string | undefined {
  if (!insights?.consent) return undefined;
  const anonymous = anonymousToken(keptValues(), insights.useCookie);
  return isValidUserToken(insights.userToken) ? insights.userToken : anonymous;
}

/** The request of the page's first search (the store's own building), or undefined when it cannot be made. */
function firstSearch(page: PrepaintPage) {
  try {
    // The state `<svc-search>` gives its store: a bad URL value is dropped as the store drops it.
    const state = queryStringToState(page.route, page.indexName);
    const token = userToken(page.insights);
    // Insights registers its needs before the elements do (`<svc-search>` creates it before providing the store).
    const needs = mergeNeeds([...(token ? [insightsNeeds(token)] : []), ...page.needs]);
    const hosts = computeHosts({
      appId: page.appId,
      apiKey: page.apiKey,
      hosts: page.hosts
        ?.split(',')
        .map((host) => host.trim())
        .filter(Boolean),
    });
    const host = hosts.find((candidate) => candidate.accept !== 'write')!;
    return { state, built: buildQueries(state, needs), url: `${host.url}/1/indexes/*/queries` };
  } catch {
    // A configuration the client would refuse (an invalid host…): `<svc-search>` reports it once it is defined.
    return undefined;
  }
}

/**
 * Starts the first paint of `document`: a promise settled once the hits are painted (or the search failed, or
 * there was nothing to paint), or undefined when the page is not one it can reproduce.
 *
 * @example
 * const painted = prepaint(document);
 * if (painted) await painted; // then load the elements
 */
export function prepaint(document: Document): Promise<void> | undefined {
  const page = readPage(document);
  const search = page && firstSearch(page);
  if (!page || !search) return undefined;
  const { state, built, url } = search;
  return fetch(`${url}?${urlCredentials(page.appId, page.apiKey)}`, {
    method: 'POST',
    body: JSON.stringify(multiSearchBody(built.requests)),
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    // No longer than the client's first attempt: the elements are not held back by a host that does not answer
    // (the store then searches with the client's retries).
    signal: AbortSignal.timeout(DEFAULT_TIMEOUTS.connect + DEFAULT_TIMEOUTS.read),
  })
    .then((response) => (response.ok ? response.json() : undefined))
    .then((answer: { results: SearchResponse[] } | undefined) => {
      if (!answer?.results?.length) return;
      const results = mergeResults(state, built, answer.results);
      const painted = paintHits(page.hits, results, page.indexName, page);
      const handoff: PrepaintHandoff = {
        initialResults: { results, requests: requestsDigest(built.requests) },
        // Without Insights no click is recorded: none could ever be sent.
        takeClicks: painted && page.insights ? recordClicks(page.root, painted.root, painted.items) : undefined,
      };
      (page.root as Element & { [PREPAINT_KEY]?: PrepaintHandoff })[PREPAINT_KEY] = handoff;
    })
    .catch(() => undefined);
}
