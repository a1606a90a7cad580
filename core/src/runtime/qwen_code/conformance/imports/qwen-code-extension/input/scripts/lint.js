console.log("lint")
