import { describe, expect, it } from "vitest";
import { DEFERRAL_PATTERNS, DEFERRAL_WINDOW, detectDeferral } from "../../guards/facts/deferral.js";

const deferrals: Array<[string, string]> = [
  ["I can search for the current price if you'd like.", "offers-to-look"],
  ["Let me look that up for you.", "offers-to-look"],
  ["I'll check the forecast and get back to you.", "offers-to-look"],
  ["I'm going to search the web for that.", "offers-to-look"],
  ["Would you like me to find the latest score?", "asks-permission"],
  ["Shall I fetch the weather for New York too?", "asks-permission"],
  ["Do you want me to check the opening hours?", "asks-permission"],
  ["I don't have access to real-time weather data.", "claims-no-access"],
  ["I cannot browse the internet, so I can't say.", "claims-no-access"],
  ["Sorry, I do not have real-time information about prices.", "claims-no-access"],
  ["My training data only goes up to 2023, so I may be out of date.", "cites-training-cutoff"],
  ["As of my last knowledge update, the price was unknown.", "cites-training-cutoff"],
  ["My knowledge cutoff is limited to early 2024.", "cites-training-cutoff"],
];

const answers = [
  "You can check their website for the opening hours.",
  "Paris is 18°C with light rain; New York is 24°C and sunny.",
  "Let me know if you need anything else.",
  "I checked the forecast: it will rain in Paris tonight.",
  "The tool reported 24°C. You may want to look it up again later.",
  "It's 64.4°F. Consider checking a local weather service for alerts.",
  "I found that New York is sunny, 24°C.",
  "The store closes at 9 pm; you could call them to confirm.",
  "According to CityWeather, London is overcast at 15°C.",
  "Searching is not needed: 20 °C is 68 °F.",
  "I used CityWeather for both cities. Paris: 18°C. New York: 24°C.",
  // The work is done first; the offer comes after the first 240 characters.
  `${"Paris is 18°C with light rain and 82% humidity; New York is 24°C, sunny, 55% humidity. ".repeat(3)}Would you like me to check London too?`,
];

describe("A1 deferral patterns", () => {
  it.each(deferrals)("catches %j (%s)", (answer, id) => {
    expect(detectDeferral(answer)?.id).toBe(id);
  });

  it("has a test for every pattern", () => {
    for (const { id } of DEFERRAL_PATTERNS) expect(deferrals.some(([, expected]) => expected === id), id).toBe(true);
  });

  it.each(answers)("accepts %j", (answer) => {
    expect(detectDeferral(answer)).toBeNull();
  });

  it("reads only the first 240 characters", () => {
    const late = answers.at(-1)!;
    expect(late.indexOf("Would you like me to")).toBeGreaterThan(DEFERRAL_WINDOW);
    expect(detectDeferral(late.slice(DEFERRAL_WINDOW - 10))).not.toBeNull();
  });
});
