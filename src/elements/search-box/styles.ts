import { searchFieldStyles } from '../base/search-field-styles.js';

/** The shared search field's look (`base/search-field-styles.ts`): `<svc-autocomplete>` has it too. */
export const styles = searchFieldStyles;
