import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Prism processes and regeneration are heavy; two cores, so at most two test files at once.
    maxWorkers: 2,
  },
});
