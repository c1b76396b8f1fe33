import { defineConfig } from "vite";

// `npm run dev` serves the app with hot reload; the API goes to the gateway of `make run`.
const gateway = process.env.TAPETE_GATEWAY ?? "http://127.0.0.1:8080";

export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  server: { proxy: { "/v1": gateway }, fs: { allow: [".."] } },
});
