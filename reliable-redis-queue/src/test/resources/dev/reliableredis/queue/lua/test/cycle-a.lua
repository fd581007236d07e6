-- LuaScriptTest: half of a cycle
include("test/cycle-b")
return 0
