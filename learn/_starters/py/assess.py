"""assess.py — your gate's decision: the book's assessToolInvocation
(chapter 11) in Python. It is the only file you need to edit;
`toolgate learn` runs it on every save (README.md says how).

It is given one admission input, already parsed from JSON (dicts, lists,
strings; a member marked ? may be absent, and absent is not the same as ""):
  contract           {version?, tools: [{name, version?, effectClass?,
                      requiredArguments, approvalScope?}]}
  request            {correlationId, tool: {name, version?}, arguments?}
  environment        {status?}
  approval           {status, scope?}, or None
  invocation_record  {correlationId?, status?, effectStatus?,
                      verificationStatus?}, or None

It returns the verdict as a dict, in this member order:
  {"status", "code", "correlationId", "missingArguments"?, "effectStatus"?}

Eight rules are asked in order, and the first that fires decides. Start
with rule 1; toolgate shows the first vector your function gets wrong, and
h gives a hint (never code).
"""


def assess_tool_invocation(contract, request, environment, approval=None, invocation_record=None):
    # Your decision goes here.
    pass
