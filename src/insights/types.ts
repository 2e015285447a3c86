/** The surface elements and controllers use to report what the user sees and does. */
export interface HitRef {
  objectID: string;
  /** The queryID of the answer that produced the hit (present when clickAnalytics was on). */
  queryID?: string;
  /** Absolute 1-based position: page × hitsPerPage + index + 1 (Recommend items: 1..n). */
  position: number;
  indexName: string;
}

export interface InsightsLike {
  /** Watches `element` for visibility (≥ 50 % in the viewport → `Hits Viewed`) and clicks inside it. */
  observe(element: Element, hit: HitRef): void;
  unobserve(element: Element): void;
  /** Sends `Filter Applied` for a refinement the user turned on. */
  filterApplied(indexName: string, attribute: string, value: string, queryID?: string): void;
  /** Sends a conversion for the objectIDs (queryID looked up from the conversion window store). */
  convert(objectIDs: string[], eventName?: string, indexName?: string): void;
}
