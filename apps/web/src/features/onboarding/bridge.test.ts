import type { OnboardingEvent } from "@app/core";
import { afterEach, describe, expect, it } from "vitest";
import { onboardingBridge, onboardingEvent } from "./bridge";
import { runtimeView } from "./hooks";
import { onboardingStore } from "./instance";

afterEach(() => onboardingBridge.setRuntime(null));

describe("onboarding bridge", () => {
  it("holds an event raised before the runtime loaded and hands it over when the runtime plugs in", () => {
    // A user who creates a dashboard before the lazy runtime arrived still moves on (the phone test's race).
    onboardingEvent("dashboard_created");
    onboardingEvent("dashboard_created");
    expect(onboardingBridge.getState().runtime).toBeNull();
    const received: OnboardingEvent[] = [];
    const view = runtimeView(onboardingStore.getSnapshot());
    onboardingBridge.setRuntime({ ...view, event: (event) => received.push(event) });
    expect(received).toEqual(["dashboard_created"]);
    // Handed over once: the runtime's next views do not receive it again.
    onboardingBridge.setRuntime({ ...view, event: (event) => received.push(event) });
    expect(received).toEqual(["dashboard_created"]);
  });

  it("holds nothing on a public or print view, and forgets what it held when the runtime unloads", () => {
    onboardingBridge.setViewer({ isPublic: true, print: false });
    onboardingEvent("date_range_changed");
    onboardingBridge.setViewer({ isPublic: false, print: true });
    onboardingEvent("pdf_downloaded");
    onboardingBridge.setViewer({ isPublic: false, print: false });
    const received: OnboardingEvent[] = [];
    const view = runtimeView(onboardingStore.getSnapshot());
    onboardingBridge.setRuntime({ ...view, event: (event) => received.push(event) });
    expect(received).toEqual([]);
    // A runtime unloading (signing out) forgets what was held for it: it is not the next user's.
    onboardingBridge.setRuntime(null);
    onboardingEvent("url_copied");
    onboardingBridge.setRuntime(null);
    onboardingBridge.setRuntime({ ...view, event: (event) => received.push(event) });
    expect(received).toEqual([]);
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
