/**
 * The controllers of each element a server render creates, so the render can run their `hostUpdate`: Lit SSR calls
 * an element's `connectedCallback` and `willUpdate` but not its controllers' `hostUpdate`, where a controller
 * registers the needs its element's properties decide (the attributes a hit list shows…). Lit keeps an element's
 * controllers private, so `SvcElement.prototype.addController` is wrapped, on the server only (this module is part
 * of `svc-search/ssr`): the browser's elements carry none of it.
 */
import type { ReactiveController } from 'lit';
import { SvcElement } from '../elements/base/svc-element.js';

const controllers = new WeakMap<SvcElement, ReactiveController[]>();

const { addController, removeController } = SvcElement.prototype;

SvcElement.prototype.addController = function (this: SvcElement, controller: ReactiveController) {
  addController.call(this, controller);
  controllers.set(this, [...(controllers.get(this) ?? []), controller]);
};

SvcElement.prototype.removeController = function (this: SvcElement, controller: ReactiveController) {
  removeController.call(this, controller);
  controllers.set(
    this,
    (controllers.get(this) ?? []).filter((c) => c !== controller),
  );
};

/**
 * Runs the `hostUpdate` of the controllers of `element` (a `SvcElement` the server render created).
 *
 * @example
 * for (const element of rendered) serverUpdate(element);
 */
export function serverUpdate(element: object): void {
  for (const controller of controllers.get(element as SvcElement) ?? []) controller.hostUpdate?.();
}
