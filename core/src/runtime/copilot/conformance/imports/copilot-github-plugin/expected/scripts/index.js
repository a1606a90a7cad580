console.log("index");
