console.log("ship mcp")
