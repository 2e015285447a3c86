import type { StoreSnapshot } from '../store/types.js';
import { StoreController } from './store-controller.js';

/** An element that tells whether it has anything to refine (every facet element of this library does). */
export interface Refinable extends Element {
  readonly canRefine?: boolean;
  readonly updateComplete?: Promise<unknown>;
}

/**
 * The first element of `elements` (or inside them) that tells whether it can refine (`canRefine`).
 *
 * @example refinableIn(slot.assignedElements()) // <svc-refinement-list>
 */
export function refinableIn(elements: Element[]): Refinable | undefined {
  for (const element of elements) {
    if ('canRefine' in element) return element as Refinable;
    const inner = [...element.querySelectorAll('*')].find((candidate) => 'canRefine' in candidate);
    if (inner) return inner as Refinable;
  }
  return undefined;
}

/**
 * Headless logic of `<svc-panel>`: whether the panel is collapsed (`toggle()`), and whether its content has
 * anything to refine — read from the content's `canRefine` after each answer of the store (once the content has
 * updated with it), so a panel can hide or mark an empty facet.
 *
 * @example
 * ```ts
 * const panel = new PanelController(host, { store }, () => [...host.children]);
 * panel.canRefine; // false while the brand list has no value
 * ```
 */
export class PanelController extends StoreController {
  /** Whether the body is hidden. */
  collapsed = false;
  /** Whether the content has something to refine (true until it says otherwise). */
  canRefine = true;

  constructor(
    host: ConstructorParameters<typeof StoreController>[0],
    options: ConstructorParameters<typeof StoreController>[1],
    private readonly content: () => Element[],
  ) {
    super(host, options);
  }

  /** Collapses or expands the body (the other way by default); returns whether it is now collapsed. */
  toggle(collapsed = !this.collapsed): boolean {
    this.collapsed = collapsed;
    this.host.requestUpdate();
    return collapsed;
  }

  protected override onSnapshot(_snapshot: StoreSnapshot): void {
    void this.check();
  }

  /** Reads the content's `canRefine` once it has rendered the current answer. */
  async check(): Promise<void> {
    const content = refinableIn(this.content());
    await content?.updateComplete;
    const canRefine = content?.canRefine ?? true;
    if (canRefine === this.canRefine) return;
    this.canRefine = canRefine;
    this.host.requestUpdate();
  }
}
