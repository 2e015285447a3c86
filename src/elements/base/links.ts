/**
 * Whether a click on a link is a plain one (main button, no modifier key), which the element handles in place;
 * any other click (a new tab or window: Ctrl, Meta, Shift, Alt, the middle button) follows the link's `href`.
 *
 * @example if (isPlainClick(event)) { event.preventDefault(); refine(value); }
 */
export function isPlainClick(event: MouseEvent): boolean {
  return !(event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);
}
