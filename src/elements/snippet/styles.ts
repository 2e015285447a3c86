export { styles } from '../highlight/styles.js';
