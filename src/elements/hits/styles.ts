import { unsafeCSS } from 'lit';
import { listStyles } from '../base/styles.js';
import { HITS_CSS } from './style-text.js';

export const styles = [listStyles, unsafeCSS(HITS_CSS)];
