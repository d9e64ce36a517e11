import type { GoalView } from "./goal-view";

/**
 * A widget's goals under its content: per goal a bar of how far along it is and the line that says it
 * ("November: 58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short"), in the dashboard's
 * language. The words say on pace or
 * short; the colour only repeats them (and each colour reads on the card: goals/goal-look.test.ts).
 * Plain markup and no library, so it is drawn in the server's page and the first render alike.
 */
export function GoalLines({ goals }: { goals: GoalView[] }) {
  if (goals.length === 0) return null;
  return (
    <div className="dash-goals" data-testid="widget-goals">
      {goals.map((goal) => (
        <div key={`${goal.metricKey} ${goal.period}`} className="dash-goal" data-tone={goal.tone}>
          <meter
            className="dash-goal-bar"
            min={0}
            max={100}
            value={goal.fill}
            aria-label={goal.barLabel}
            aria-valuetext={goal.progressText}
          />
          <p className="dash-goal-text" data-testid="goal-line" title={goal.text}>
            {goal.showName ? <span className="dash-goal-name">{goal.nameText}</span> : null}
            {goal.lead}
            <strong className="dash-goal-status">{goal.status}</strong>
          </p>
        </div>
      ))}
    </div>
  );
}
