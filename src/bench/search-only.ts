import { benchSearch } from './search-bench.js';

/** `node dist/bench/search-only.js [size...]`: the in-process search part of `npm run bench` alone. */
const sizes = process.argv.slice(2).map(Number);
for (const size of sizes.length > 0 ? sizes : [100_000, 1_000_000]) benchSearch(size, (l) => process.stdout.write(l));
