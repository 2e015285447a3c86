export { baseStyles as styles } from '../base/styles.js';
