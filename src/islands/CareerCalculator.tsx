import { useId, useState } from 'react';

export interface Career {
  job: string;
  exposure: 'Low' | 'Moderate' | 'High';
  summary: string;
  aiHelps: string[];
  skills: string[];
}

/** Pick a job, see how exposed it is to automation, what AI helps with and which skills to build. */
export default function CareerCalculator({ careers }: { careers: Career[] }) {
  const [selected, setSelected] = useState('');
  const id = useId();
  const career = careers.find((c) => c.job === selected);
  return (
    <div className="card" data-career-calculator>
      <label className="label" htmlFor={id}>Your job</label>
      <select id={id} className="field max-w-sm" value={selected} onChange={(e) => setSelected(e.currentTarget.value)}>
        <option value="">Choose a job…</option>
        {careers.map((c) => <option key={c.job} value={c.job}>{c.job}</option>)}
      </select>
      <div aria-live="polite" className="mt-6" data-career-result>
        {career && (
          <div>
            <h3 className="text-xl font-bold">{career.job}: <span className="text-accent">{career.exposure} automation exposure</span></h3>
            <p className="mt-2 text-muted">{career.summary}</p>
            <div className="mt-4 grid gap-6 sm:grid-cols-2">
              <div>
                <h4 className="font-semibold">Where AI helps you</h4>
                <ul className="mt-2 list-disc space-y-1 pl-5 text-muted">{career.aiHelps.map((t) => <li key={t}>{t}</li>)}</ul>
              </div>
              <div>
                <h4 className="font-semibold">Skills to build</h4>
                <ul className="mt-2 list-disc space-y-1 pl-5 text-muted">{career.skills.map((t) => <li key={t}>{t}</li>)}</ul>
              </div>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
