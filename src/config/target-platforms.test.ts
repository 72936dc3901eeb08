// A target file's platform fields that name places (base_url, allowed_origins): read as the agent's
// call rule uses them, and the exact message for an entry that is not an origin.
import { expect, test } from "bun:test";
import { parseTargetConfig } from "./target-config.ts";

test("allowed_origins: each entry an http(s) origin or a deep-link scheme; anything else is a problem at its file:line:col", () => {
  const target = parseTargetConfig(
    "shop.yaml",
    "id: shop\nplatforms:\n  web:\n    base_url: https://shop.example.test/\n    allowed_origins: [https://sso.example.test, http://localhost:3000/]\n  android:\n    allowed_origins: [shop://]\n",
  );
  expect(target.platforms.web).toMatchObject({
    baseUrls: ["https://shop.example.test/"],
    allowedOrigins: ["https://sso.example.test", "http://localhost:3000"],
  });
  expect(target.platforms.android?.allowedOrigins).toEqual(["shop:"]);

  let message = "";
  try {
    parseTargetConfig(
      "shop.yaml",
      'id: shop\nplatforms:\n  web:\n    allowed_origins:\n      - https://sso.example.test/?next=1\n      - "data:text/html,hi"\n      - 7\n',
    );
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toContain(
    'shop.yaml:5:9 platforms.web.allowed_origins[0]: "https://sso.example.test/?next=1" has more than an origin: write https://sso.example.test (the rule is per origin: scheme, host and port)',
  );
  expect(message).toContain(
    'shop.yaml:6:9 platforms.web.allowed_origins[1]: "data:text/html,hi": data: URLs are never opened for the model',
  );
  expect(message).toContain("shop.yaml:7:9 platforms.web.allowed_origins[2]");
});
