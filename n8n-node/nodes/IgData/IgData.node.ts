import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { properties } from './description';
import { SUBTITLE } from './operations';
import { executeIgData } from './execute';

export class IgData implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'IG Data',
    name: 'igData',
    icon: { light: 'file:igdata.svg', dark: 'file:igdata.dark.svg' },
    group: ['transform'],
    version: 1,
    subtitle: SUBTITLE,
    description:
      'Public Instagram data: profiles, posts, reels, stories, followers, hashtags, locations, ' +
      'search, and engagement, audit and AI insights. Each operation is one API endpoint; its value ' +
      'is the endpoint path (e.g. profile/posts) and its fields are the API query parameters.',
    defaults: {
      name: 'IG Data',
    },
    usableAsTool: true,
    // Node names stay "IG Data" instead of the operation's action, which is the long sentence an
    // AI agent reads as the tool's description (what it returns and costs: operations.ts, toolAction).
    skipNameGeneration: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [
      {
        name: 'igDataApi',
        required: true,
      },
    ],
    properties,
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await executeIgData.call(this);
  }
}
