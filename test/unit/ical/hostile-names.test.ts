import { describe, expect, it } from 'vitest';
import { parseIcs } from '../../../src/ical/import.js';
import { scanIcs } from '../../../src/ical/scan.js';

/**
 * node-ical keys components by UID and properties by name on plain objects; the scan hands it
 * tokens and known names only, so nothing in a file can write onto Object.prototype or Object.
 */
const NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', 'type', 'method', 'vcalendar', 'keys', 'assign'];

const own = (o: object) => Object.getOwnPropertyNames(o).sort();
const snapshot = () => ({ proto: own(Object.prototype), object: own(Object), fn: own(Function.prototype), arr: own(Array.prototype) });

function hostile(): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'X-WR-CALNAME:cal'];
  NAMES.forEach((name, i) => {
    const day = String(i + 1).padStart(2, '0');
    lines.push('BEGIN:VEVENT', `UID:${name}`, `DTSTART:203105${day}T100000Z`, 'DURATION:PT30M', `SUMMARY:${name}`);
    if (i === 0) lines.push('RRULE:FREQ=DAILY;COUNT=3');
    for (const p of NAMES) lines.push(`X-${p}:${p}`, `${p.replace(/_/g, '')}:${p}`);
    lines.push(`DESCRIPTION;${name}=1;constructor=2:about ${name}`);
    // An alarm and a to-do with a hostile UID of their own.
    lines.push('BEGIN:VALARM', `UID:${name}`, 'ACTION:DISPLAY', 'TRIGGER:-PT5M', 'END:VALARM', 'END:VEVENT');
    lines.push('BEGIN:VTODO', `UID:${name}`, 'SUMMARY:todo', 'END:VTODO');
  });
  // An overridden instance of the series `__proto__`.
  lines.push('BEGIN:VEVENT', 'UID:__proto__', 'RECURRENCE-ID:20310502T100000Z', 'DTSTART:20310502T120000Z', 'DURATION:PT30M', 'SUMMARY:moved', 'END:VEVENT');
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

describe('names from the file are only strings', () => {
  it('parses every event under its own UID and leaves Object.prototype, Object and friends untouched', () => {
    const before = snapshot();
    const parsed = parseIcs(hostile(), 'UTC');
    expect(snapshot()).toEqual(before);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    expect(parsed.errors).toEqual([]);
    const uids = parsed.events.map((e) => e.uid);
    expect(uids).toEqual(NAMES);
    expect(parsed.events[0]).toMatchObject({
      rrule: 'FREQ=DAILY;COUNT=3',
      overrides: [{ recurrence_id: '2031-05-02T10:00:00.000Z', scheduled_for: '2031-05-02T12:00:00.000Z', title: 'moved' }],
    });
    for (const e of parsed.events.slice(0, NAMES.length)) {
      expect(e.title).toBe(e.uid);
      expect(e.description).toBe(`about ${e.uid}`);
    }
    // The to-dos are counted as skipped components, not merged into the events sharing their UID.
    expect(parsed.skipped).toBe(NAMES.length);
  });

  it('hands node-ical UID tokens and only the properties and parameters it reads', () => {
    const scan = scanIcs(hostile());
    for (const name of NAMES.filter((n) => n !== 'type')) expect(scan.text).not.toMatch(new RegExp(`^(X-)?${name}[;:]`, 'im'));
    expect(scan.text).not.toMatch(/^UID:(?!kairosuid\d+x\r?$)/m);
    expect(scan.text).not.toMatch(/;(__proto__|constructor)=/);
    expect(scan.text).not.toMatch(/^(ACTION|TRIGGER|X-WR-CALNAME)/m);
    expect(scan.events.map((b) => b.uid)).toEqual([...NAMES, '__proto__']);
    // The same UID gets the same token, so overrides still meet their series.
    expect(scan.uids.token('__proto__')).toBe(scan.uids.token('__proto__'));
    expect(scan.uids.original(scan.uids.token('constructor'))).toBe('constructor');
    expect(scan.uids.original('constructor')).toBeUndefined();
  });

  it('keeps parameters in quotes, zones and value types', () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'UID:a,b',
      'DTSTART;X-A="x;y:z";TZID="Europe/Berlin":20310301T100000',
      'DTEND;TZID=Europe/Berlin;LANGUAGE=de:20310301T110000',
      'SUMMARY;LANGUAGE=de:Titel',
      'RDATE;VALUE=DATE-TIME;TZID=Europe/Berlin:20310305T100000',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const scan = scanIcs(ics);
    expect(scan.text).toContain('\r\nDTSTART;TZID="Europe/Berlin":20310301T100000\r\n');
    expect(scan.text).toContain('\r\nDTEND;TZID=Europe/Berlin:20310301T110000\r\n');
    expect(scan.text).toContain('\r\nSUMMARY:Titel\r\n');
    const [e] = parseIcs(ics, 'UTC').events;
    expect(e).toMatchObject({
      uid: 'a,b',
      title: 'Titel',
      scheduled_for: '2031-03-01T09:00:00.000Z',
      duration_minutes: 60,
      timezone: 'Europe/Berlin',
      rdates: ['2031-03-05T09:00:00.000Z'],
    });
  });
});
