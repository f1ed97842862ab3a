import { useId, useState } from 'react';

export interface QuizQuestion {
  question: string;
  subtext?: string;
  options: string[];
  correct: number;
  feedback: string;
}

/**
 * A short quiz: pick an option, Submit Answer (disabled until a choice), read the feedback, go Next; a final
 * score at the end. A wrong answer names the correct one.
 */
export default function Quiz({ questions }: { questions: QuizQuestion[] }) {
  const [index, setIndex] = useState(0);
  const [choice, setChoice] = useState<number | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [score, setScore] = useState(0);
  const [done, setDone] = useState(false);
  const id = useId();
  const q = questions[index]!;
  const isLast = index === questions.length - 1;

  if (done) {
    return (
      <div className="card text-center" data-quiz-result>
        <p className="text-2xl font-bold" role="status">You scored {score} out of {questions.length}</p>
        <p className="mt-2 text-muted">{score === questions.length ? 'Perfect: you know your AI facts.' : 'Every answer above is worth a second look. The myths about AI are everywhere.'}</p>
        <button type="button" className="btn-secondary mt-6" onClick={() => { setIndex(0); setChoice(null); setSubmitted(false); setScore(0); setDone(false); }}>Try again</button>
      </div>
    );
  }

  const correct = choice === q.correct;
  return (
    <form
      className="card"
      data-quiz
      onSubmit={(e) => {
        e.preventDefault();
        if (choice === null || submitted) return;
        setSubmitted(true);
        if (choice === q.correct) setScore((s) => s + 1);
      }}
    >
      <p className="text-sm font-semibold text-accent" data-quiz-counter>Question {index + 1} of {questions.length}</p>
      <fieldset className="mt-2">
        <legend className="text-xl font-bold">{q.question}</legend>
        {q.subtext && <p className="mt-1 text-sm text-muted">{q.subtext}</p>}
        <div className="mt-4 grid gap-2">
          {q.options.map((option, i) => (
            <label key={option} className={`flex cursor-pointer items-center gap-3 rounded-lg border px-4 py-3 ${choice === i ? 'border-accent bg-surface-2' : 'border-border'}`}>
              <input type="radio" name={`${id}-q${index}`} value={i} checked={choice === i} disabled={submitted} onChange={() => setChoice(i)} />
              <span>{option}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div role="status" aria-live="polite" className="mt-4 min-h-6" data-quiz-feedback>
        {submitted && (correct ? <p className="font-semibold text-success">{q.feedback}</p> : <p className="font-semibold text-danger">Not quite. The correct answer is: {q.options[q.correct]}.</p>)}
      </div>
      <div className="mt-4 flex gap-3">
        {!submitted ? (
          <button type="submit" className="btn-primary" disabled={choice === null}>Submit Answer</button>
        ) : (
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              if (isLast) setDone(true);
              else { setIndex(index + 1); setChoice(null); setSubmitted(false); }
            }}
          >
            {isLast ? 'See your score' : 'Next'}
          </button>
        )}
      </div>
    </form>
  );
}
