import { unsafeCSS } from 'lit';
import { baseStyles } from '../base/styles.js';
import { HIGHLIGHT_CSS } from './style-text.js';

export const styles = [baseStyles, unsafeCSS(HIGHLIGHT_CSS)];
