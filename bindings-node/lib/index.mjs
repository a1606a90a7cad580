// ESM entry: the same objects as the CommonJS one (lib/index.js).
import plugforge from './index.js'

export const {
  version,
  build,
  Build,
  uninstallPathsToRead,
  uninstallPlan,
  doctorPathsToRead,
  doctor,
  starterSource,
  validate,
  importPlugin,
  rules,
  runtimes,
  sha256Hex,
  runCli,
  readTree,
  observe,
  applyPlan,
  createFiles,
  generatedAt,
  buildToDir,
  withLock,
} = plugforge

export default plugforge
