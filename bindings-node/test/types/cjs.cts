// Compiled by `tsc` (test/types.test.mjs), never run: the same typings from CommonJS.
import plugforge = require('plugforge')

const output: plugforge.Build = plugforge.build(plugforge.starterSource('demo'))
const plan: plugforge.Plan = output.plan({}, { generatedAt: plugforge.generatedAt() })
console.log(plan.summary.create, output.bundles[0]?.pluginName)
const report: plugforge.ValidationReport = plugforge.validate(plugforge.starterSource('demo'), {})
const imported: plugforge.Imported = plugforge.importPlugin([], { from: null })
console.log(report.findings.map((f) => f.code), imported.notes.length, plugforge.rules()[0]?.code)
