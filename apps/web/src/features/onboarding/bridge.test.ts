import type { OnboardingEvent } from "@app/core";
import { afterEach, describe, expect, it } from "vitest";
import { onboardingBridge, onboardingEvent } from "./bridge";
import { runtimeView } from "./hooks";
import { onboardingStore } from "./instance";

afterEach(() => onboardingBridge.setRuntime(null));

describe("onboarding bridge", () => {
  it("drops a feature's event while no runtime is loaded (a guest, a public dashboard)", () => {
    expect(() => onboardingEvent("url_copied")).not.toThrow();
    expect(onboardingBridge.getState().runtime).toBeNull();
  });

  it("hands a feature's event to the runtime that plugged in", () => {
    const received: OnboardingEvent[] = [];
    const view = runtimeView(onboardingStore.getSnapshot());
    onboardingBridge.setRuntime({ ...view, event: (event) => received.push(event) });
    onboardingEvent("dashboard_created");
    expect(received).toEqual(["dashboard_created"]);
  });

  it("tells subscribers of a viewer change once", () => {
    let calls = 0;
    const unsubscribe = onboardingBridge.subscribe(() => calls++);
    onboardingBridge.setViewer({ isPublic: true, print: false });
    onboardingBridge.setViewer({ isPublic: true, print: false });
    expect(calls).toBe(1);
    expect(onboardingBridge.getState().viewer).toEqual({ isPublic: true, print: false });
    onboardingBridge.setViewer({ isPublic: false, print: false });
    unsubscribe();
  });
});
