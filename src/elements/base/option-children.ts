import { isServer, type ReactiveController, type ReactiveElement } from 'lit';

/**
 * The `<option>` children of an element, read as items (`read(option)`) while it is connected and again when
 * they change (a mutation observer): the declarative form of an element's choices, as `<svc-sort-by>` has.
 * The host updates only when the items really changed.
 *
 * @example
 * ```ts
 * #options = new OptionChildren(this, (option) => ({ value: option.value, label: option.textContent?.trim() }));
 * render() { return this.#options.items.map(…); }
 * ```
 */
export class OptionChildren<I> implements ReactiveController {
  /** The items of the `<option>` children, in order. */
  items: I[] = [];
  #key = '[]';
  // A server sees no children.
  readonly #observer = isServer ? undefined : new MutationObserver(() => this.#read());

  constructor(
    private readonly host: ReactiveElement,
    private readonly read: (option: HTMLOptionElement) => I,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    if (isServer) return;
    this.#read();
    this.#observer?.observe(this.host, { childList: true, subtree: true, characterData: true, attributes: true });
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
  }

  #read(): void {
    const items = [...this.host.querySelectorAll<HTMLOptionElement>(':scope > option')].map(this.read);
    const key = JSON.stringify(items);
    // The observer also sees the host's own attributes: only a real change of the options updates.
    if (key === this.#key) return;
    this.#key = key;
    this.items = items;
    this.host.requestUpdate();
  }
}
