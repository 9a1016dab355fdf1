/**
 * Latency of the embedded translator (Debian's apertium, pipelines kept warm) per transcript line:
 * en→es and es→en (one pipeline), en→fr, en→pt, en→it (two: through Spanish). For each pair a new
 * translator, so the first call is cold (bash + every stage started, dictionaries loaded); then
 * BENCH_TRANSLATION_PASSES (3) passes over 30 meeting-like lines, one line at a time, as the room
 * translates them. English lines come from bench/meetings; the Spanish ones are written below.
 * Target (issue 11): warm median ≤ 50 ms a line for every pair; a miss exits 1.
 * Writes bench/results/translation.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createApertiumTranslator } from '../apps/server/src/providers/translation/apertium.js';
import { benchRoot, recordResult } from './support/results.js';

const TARGET_MS = 50;
const PASSES = Number(process.env.BENCH_TRANSLATION_PASSES ?? 3);
const LINES = 30;

const SPANISH = [
  'Buenos días a todos, empezamos con la ronda de siempre.',
  'Ayer terminé la lógica de reintentos y abrí la solicitud de cambios.',
  'Hoy voy a escribir las pruebas de integración.',
  '¿Alguien puede revisar mi código antes del viernes?',
  'La exportación funciona con cuentas pequeñas pero falla con las grandes.',
  'Creo que tenemos que procesar las filas por partes.',
  'Entonces vamos a usar la opción más sencilla.',
  'La base de datos de pruebas casi no tiene espacio en disco.',
  'Rosa, ¿puedes limpiar las copias antiguas esta mañana?',
  'Sí, lo hago antes del mediodía.',
  'Terminé el borrador del manual de guardias.',
  'Me gustaría que todos lo leyeran antes de la reunión del viernes.',
  'El equipo móvil pidió mantener el servicio antiguo hasta fin de mes.',
  'Acordamos retirarlo el treinta y uno de marzo.',
  'El cliente quiere una prueba piloto de treinta días.',
  'Te envío el contrato mañana por la tarde.',
  'El precio es de dieciocho dólares por usuario al mes.',
  'Necesitamos los datos en un centro de datos europeo.',
  'La caída duró veintinueve minutos en total.',
  'La causa fue un error en la configuración.',
  'Vamos a reducir el tiempo de la alerta a dos minutos.',
  'Voy a actualizar la documentación el jueves.',
  'La nueva pantalla de bienvenida tiene tres pasos.',
  'Los puntos de progreso tienen muy poco contraste.',
  'Podemos cargar las imágenes cuando se necesiten.',
  'No hace falta decidir nada hoy.',
  'El presupuesto del año que viene sube un ocho por ciento.',
  'Propongo que nos mudemos a una oficina más pequeña.',
  'Gracias a todos, nos vemos la semana que viene.',
  '¿Hay algo más que queráis comentar?',
];

/** 30 English lines said in the benchmark meetings (the text after `Speaker:`), in file order. */
function englishLines(): string[] {
  const dir = path.join(benchRoot, 'meetings');
  const texts = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .flatMap((f) =>
      readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .slice(0, 3)
        .map((l) => l.replace(/^[^:]+:\s*/, '').trim()),
    )
    .filter(Boolean);
  return texts.slice(0, LINES);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const round = (n: number) => Math.round(n * 10) / 10;

async function measure(from: string, to: string, lines: string[]) {
  // Creating it only asks apertium-wblank-mode for each installed mode's pipeline (server start).
  const createStart = performance.now();
  const created = createApertiumTranslator();
  const createMs = performance.now() - createStart;
  if (!created.translator) throw new Error(`apertium is unavailable: ${created.reason}`);
  const translator = created.translator;
  try {
    const coldStart = performance.now();
    const first = await translator.translate(lines[0]!, from, to);
    const coldMs = performance.now() - coldStart;
    const samples: number[] = [];
    for (let pass = 0; pass < PASSES; pass += 1) {
      for (const line of lines) {
        const t = performance.now();
        await translator.translate(line, from, to);
        samples.push(performance.now() - t);
      }
    }
    samples.sort((a, b) => a - b);
    return {
      pair: `${from}→${to}`,
      route: translator.route(from, to),
      lines: lines.length,
      runs: samples.length,
      createMs: round(createMs),
      coldFirstCallMs: round(coldMs),
      warmMedianMs: round(percentile(samples, 50)),
      warmP95Ms: round(percentile(samples, 95)),
      warmMaxMs: round(samples[samples.length - 1]!),
      example: { source: lines[0], translation: first },
    };
  } finally {
    await translator.close();
  }
}

async function main(): Promise<number> {
  const english = englishLines();
  const pairs: Array<[string, string, string[]]> = [
    ['en', 'es', english],
    ['es', 'en', SPANISH],
    ['en', 'fr', english],
    ['en', 'pt', english],
    ['en', 'it', english],
  ];
  const results = [];
  for (const [from, to, lines] of pairs) {
    const r = await measure(from, to, lines);
    const pass = r.warmMedianMs <= TARGET_MS;
    results.push({ ...r, pass });
    console.log(
      `${r.pair.padEnd(6)} via ${r.route.join(' + ').padEnd(18)} create ${String(r.createMs).padStart(5)} ms  cold ${String(r.coldFirstCallMs).padStart(6)} ms   ` +
        `warm median ${String(r.warmMedianMs).padStart(5)} ms  p95 ${String(r.warmP95Ms).padStart(5)} ms  ` +
        `max ${String(r.warmMaxMs).padStart(5)} ms  (${r.runs} runs)  ${pass ? 'PASS' : 'MISS'}`,
    );
    console.log(`       "${r.example.source}" → "${r.example.translation}"`);
  }
  const ok = results.every((r) => r.pass);
  console.log(`\ntarget: warm median ≤ ${TARGET_MS} ms a line for every pair: ${ok ? 'PASS' : 'MISS'}`);
  const file = recordResult('translation', {
    engine: 'apertium',
    target: { warmMedianMs: TARGET_MS },
    passes: PASSES,
    pairs: results,
    pass: ok,
  });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
