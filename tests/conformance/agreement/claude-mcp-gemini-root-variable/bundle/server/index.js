// placeholder server entry point
