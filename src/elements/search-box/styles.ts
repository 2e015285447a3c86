import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`form{display:flex;align-items:center;gap:.25rem;block-size:var(--svc-search-box-height,2.75rem);padding-inline:.75rem .25rem;border:1px solid var(--_border);border-radius:var(--svc-search-box-radius,var(--_radius));background:var(--svc-search-box-background,none)}
form:focus-within{border-color:var(--_accent);box-shadow:0 0 0 1px var(--_accent)}
input{flex:1;min-inline-size:0;block-size:100%;border:0;padding:0;background:none;font-size:var(--svc-search-box-font-size,1rem);outline:0}
input::placeholder{color:var(--_muted)}
input::-webkit-search-cancel-button{appearance:none}
svg{inline-size:1.1em;block-size:1.1em;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round}
button,span{display:inline-grid;place-items:center;inline-size:2rem;block-size:2rem;padding:0;border:0;border-radius:var(--_radius);background:none;cursor:pointer;color:var(--_muted)}
button:hover{color:inherit;background:var(--_tint)}
[part~=submit]{order:-1;margin-inline-start:-.5rem}
span{color:var(--_accent);cursor:auto}
span svg{animation:s .8s linear infinite}
@keyframes s{to{transform:rotate(1turn)}}
@media (prefers-reduced-motion:reduce){svg{animation-duration:3s}}`,
];
