process.stdout.write("");
